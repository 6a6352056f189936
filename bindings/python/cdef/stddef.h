/* Empty: cffi knows the standard C types; the header is preprocessed without the system headers. */
