"""Blobs: binary content (an image, a file) that documents refer to, as Couchbase Lite's
Blob. The content is stored once per digest in the database, outside the document; the
document holds the blob's metadata dict
{"@type": "blob", "content_type": …, "digest": "sha1-…", "length": …}, which is also what
queries return (Database.get_blob turns it back into a Blob)."""

import io
import json
import os
import weakref
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Dict, List, Mapping, Optional, Union

from ._errors import error_from, new_error
from ._ffi import Handle, borrowed_text, ffi, lib, libc, owned_text, present, text

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

    from ._database import Database

_CHUNK = 256 * 1024   # bytes per CBLBlobWriter_Write when a blob is made from a stream

BytesLike = Union[bytes, bytearray, memoryview]
"""The content of a blob made in memory (any bytes-like object serves at run time)."""


class Blob:
    """Binary content with a MIME type, as Couchbase Lite's Blob.

    `Blob(content_type, data)` holds a copy of `data`; `Blob.from_stream` and
    `Blob.from_file` read their source piece by piece into a staged file. A new
    blob's content is stored in a database when a document holding it is saved
    (a Blob as a property value, at any depth, or `Document.set_blob`), in the
    save's transaction, or by `Database.save_blob`. Blobs read back from a
    database (`Database.get_blob`, `Document.get_blob`) read their content from
    it, so only while it is open. Two blobs are equal when their contents are
    (the same digest). The library handle is released when the Blob is collected."""

    __slots__ = ("_handle", "__weakref__")

    _handle: Handle

    def __init__(self, content_type: Optional[str], data: BytesLike) -> None:
        """A blob of a copy of `data` (bytes, bytearray, memoryview or another bytes-like
        object; a str raises TypeError), `content_type` its MIME type (optional)."""
        if isinstance(data, str):
            raise TypeError("a blob holds bytes, not str (encode the text first)")
        source = ffi.from_buffer(data)   # (a bytes-like object: bytes, bytearray, memoryview, array…)
        error = new_error()
        pointer = lib.CBLBlob_CreateWithData(text(content_type, "the content type", optional=True), source, len(source), error)
        if pointer == ffi.NULL:
            raise error_from(error)
        self._handle = Handle(pointer)

    @classmethod
    def _adopt(cls, pointer: Any) -> "Blob":
        """The Blob of a blob handle the library returned (+1)."""
        blob = cls.__new__(cls)
        blob._handle = Handle(pointer)
        return blob

    @classmethod
    def from_stream(cls, content_type: Optional[str], readable: BinaryIO, database: "Database") -> "Blob":
        """A blob of what the binary file-like `readable` gives until its end, read in
        chunks (its `readinto`, or `read`) into a file staged for `database` (an open
        Database: C's CBLBlobWriter_Create takes one), so that content of any size is
        never held in memory. `readable` is not closed. The content is stored in the
        database when a document holding the blob is saved, or by Database.save_blob."""
        content_type_text = text(content_type, "the content type", optional=True)   # (checked before anything is staged)
        error = new_error()
        writer = lib.CBLBlobWriter_Create(database._pointer(), error)
        if writer == ffi.NULL:
            raise error_from(error)
        try:
            readinto = getattr(readable, "readinto", None)
            view = memoryview(bytearray(_CHUNK if readinto is not None else 0))
            while True:
                chunk: Union[bytes, memoryview]
                if readinto is not None:
                    count = readinto(view)
                    if count is None:
                        raise BlockingIOError("the stream has no data ready (a non-blocking stream)")
                    chunk = view[:count]
                else:
                    chunk = readable.read(_CHUNK)
                    if chunk is None:
                        raise BlockingIOError("the stream has no data ready (a non-blocking stream)")
                    if isinstance(chunk, str):
                        raise TypeError("a blob is made from a binary stream, not a text one (open it with 'rb')")
                if not len(chunk):
                    break
                if not lib.CBLBlobWriter_Write(writer, ffi.from_buffer(chunk), len(chunk), error):
                    raise error_from(error)
        except BaseException:
            lib.CBLBlobWriter_Close(writer)   # (deletes what was staged)
            raise
        pointer = lib.CBLBlob_CreateWithStream(content_type_text, writer, error)   # consumes the writer
        if pointer == ffi.NULL:
            raise error_from(error)
        return cls._adopt(pointer)

    @classmethod
    def from_file(cls, content_type: Optional[str], path: Union[str, "os.PathLike[str]"], database: "Database") -> "Blob":
        """A blob of the content of the file at `path`, read in chunks (as `from_stream`,
        for `database`): the file may change or go afterwards."""
        with io.open(os.fspath(path), "rb", buffering=0) as file:
            return cls.from_stream(content_type, file, database)

    @staticmethod
    def is_blob(properties: Any) -> bool:
        """Whether `properties` is a blob's metadata dict (`"@type": "blob"` and a string
        `digest`), as documents and query rows hold it."""
        return (isinstance(properties, Mapping) and properties.get("@type") == "blob"
                and isinstance(properties.get("digest"), str))

    @property
    def _pointer(self) -> Any:
        """The blob's library handle."""
        return self._handle.pointer

    @property
    def content_type(self) -> Optional[str]:
        """The MIME type given when the blob was made, or None."""
        return borrowed_text(lib.CBLBlob_ContentType(self._pointer))

    @property
    def length(self) -> int:
        """The content's length in bytes."""
        length: int = lib.CBLBlob_Length(self._pointer)
        return length

    @property
    def digest(self) -> str:
        """The content's digest: "sha1-" and the Base64 of its SHA-1."""
        return present(borrowed_text(lib.CBLBlob_Digest(self._pointer)), "blob digest")

    @property
    def properties(self) -> Dict[str, Any]:
        """The metadata dict a document's properties hold for the blob (a new dict each time)."""
        properties: Dict[str, Any] = json.loads(self.to_json())
        return properties

    def to_json(self) -> str:
        """The metadata dict as JSON text."""
        return present(owned_text(lib.CBLBlob_CreateJSON(self._pointer)), "blob metadata")

    @property
    def content(self) -> bytes:
        """The whole content, read into memory (open_stream reads it piece by piece). Raises
        when the database that stores the blob is closed or lacks its content."""
        error = new_error()
        length = ffi.new("size_t*")
        pointer = lib.CBLBlob_Content(self._pointer, length, error)
        if pointer == ffi.NULL:
            raise error_from(error)
        try:
            content: bytes = ffi.buffer(pointer, length[0])[:]
            return content
        finally:
            libc.free(pointer)   # (malloc'd by the library)

    def open_stream(self) -> "BlobReadStream":
        """A binary stream over the content (an io.RawIOBase: read, readinto, seek, tell),
        for content too large to read whole; close it when done (it is a context
        manager): a stored blob's stream keeps a read snapshot of its database."""
        error = new_error()
        pointer = lib.CBLBlob_OpenContentStream(self._pointer, error)
        if pointer == ffi.NULL:
            raise error_from(error)
        return BlobReadStream(pointer, self)

    def __eq__(self, other: object) -> bool:
        """Whether `other` is a Blob with the same content (the same digest)."""
        if not isinstance(other, Blob):
            return NotImplemented
        return bool(lib.CBLBlob_Equals(self._pointer, other._pointer))

    def __hash__(self) -> int:
        """The hash of the digest (equal blobs hash alike)."""
        return hash(self.digest)

    def __repr__(self) -> str:
        return f"<doclite.Blob {self.content_type or 'application/octet-stream'}; {self.length} bytes; {self.digest}>"


class BlobReadStream(io.RawIOBase):
    """A read-only binary stream over a blob's content (Blob.open_stream), as C's
    CBLBlobReadStream: `read`, `readinto`, `readall`, `seek` (io.SEEK_SET, SEEK_CUR or
    SEEK_END; a position outside the content raises InvalidParameterError) and `tell`.
    `close()` (or the end of a `with` block) releases it; a closed stream raises
    ValueError, as Python's files do. Use it from one thread at a time."""

    def __init__(self, pointer: Any, blob: Blob) -> None:
        """The stream of the library's stream handle `pointer` (adopted) over `blob`'s
        content: made by Blob.open_stream."""
        super().__init__()
        self._stream = pointer
        self._blob: Optional[Blob] = blob   # (keeps the blob alive while its stream is read)
        self._length = blob.length
        self._finalizer = weakref.finalize(self, lib.CBLBlobReader_Close, pointer)

    def _check_open(self) -> None:
        if self.closed:
            raise ValueError("I/O operation on a closed blob stream")

    def readable(self) -> bool:
        """True: the stream reads."""
        return True

    def seekable(self) -> bool:
        """True: the stream seeks."""
        return True

    def readinto(self, buffer: "WriteableBuffer") -> int:
        """Reads up to len(buffer) bytes into `buffer`; the number read, 0 at the end."""
        self._check_open()
        target = memoryview(buffer).cast("B")
        if not target.nbytes:
            return 0
        error = new_error()
        count: int = lib.CBLBlobReader_Read(self._stream, ffi.from_buffer(target, require_writable=True), target.nbytes, error)
        if count < 0:
            raise error_from(error)
        return count

    def readall(self) -> bytes:
        """The rest of the content, from the current position."""
        self._check_open()
        buffer = bytearray(max(self._length - self.tell(), 0))
        view, done = memoryview(buffer), 0
        while done < len(buffer):
            count = self.readinto(view[done:])
            if not count:
                break
            done += count
        del view
        del buffer[done:]
        return bytes(buffer)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        """Moves to `offset` from the start (io.SEEK_SET), the current position (SEEK_CUR)
        or the end (SEEK_END); returns the new position."""
        self._check_open()
        base = {io.SEEK_SET: lib.kCBLSeekModeFromStart, io.SEEK_CUR: lib.kCBLSeekModeRelative,
                io.SEEK_END: lib.kCBLSeekModeFromEnd}.get(whence)
        if base is None:
            raise ValueError(f"invalid whence ({whence!r}: io.SEEK_SET, SEEK_CUR or SEEK_END)")
        error = new_error()
        position: int = lib.CBLBlobReader_Seek(self._stream, offset, base, error)
        if position < 0:
            raise error_from(error)
        return position

    def tell(self) -> int:
        """The current position (where the next read starts)."""
        self._check_open()
        position: int = lib.CBLBlobReader_Position(self._stream)
        return position

    def close(self) -> None:
        """Closes the stream and releases its handle (again: nothing)."""
        if not self.closed:
            self._finalizer()
            self._blob = None
        super().close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"at {self.tell()}"
        return f"<doclite.BlobReadStream {self._length} bytes, {state}>"


def json_default(blobs: Optional[List[Blob]] = None) -> Callable[[Any], Dict[str, Any]]:
    """A `default` for json.dumps writing a Blob as its metadata dict (and, with a list,
    noting it there, so that its content can be stored with the document)."""
    def encode(value: Any) -> Dict[str, Any]:
        if isinstance(value, Blob):
            if blobs is not None:
                blobs.append(value)
            return value.properties
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
    return encode
