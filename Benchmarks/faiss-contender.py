"""FAISS alone, for doclite-bench --vectors (VectorBenchmark): the same inverted-file
index DocLite builds (squared Euclidean, the same centroids, training sample size and
probes; ENCODING "none", IndexIVFFlat, or "SQ8", IndexIVFScalarQuantizer coding the
vectors themselves, not residuals, as DocLite does), on one thread, called directly
from Python.

Usage: python3 faiss-contender.py FILE ENCODING CENTROIDS TRAINING PROBES K ROUNDS
FILE holds, in native byte order: int32 count, dimensions, queries; then the
vectors and the queries as float32s. Prints one JSON object: the build's seconds,
the median k-NN query's milliseconds (thread CPU time, the call from Python
included) and each query's neighbours, by index into the vectors.
"""
import json
import sys
import time

import faiss
import numpy as np


def main():
    path, encoding = sys.argv[1:3]
    centroids, training, probes, k, rounds = map(int, sys.argv[3:])
    with open(path, "rb") as file:
        count, dimensions, query_count = np.frombuffer(file.read(12), dtype=np.int32)
        data = np.frombuffer(file.read(), dtype=np.float32)
    vectors = data[: count * dimensions].reshape(count, dimensions)
    queries = data[count * dimensions:].reshape(query_count, dimensions)
    faiss.omp_set_num_threads(1)

    start = time.thread_time()
    quantizer = faiss.IndexFlatL2(int(dimensions))
    if encoding == "SQ8":
        index = faiss.IndexIVFScalarQuantizer(quantizer, int(dimensions), centroids, faiss.ScalarQuantizer.QT_8bit,
                                              faiss.METRIC_L2, False)
    else:
        index = faiss.IndexIVFFlat(quantizer, int(dimensions), centroids, faiss.METRIC_L2)
    index.cp.max_points_per_centroid = max(1, training // centroids)
    index.train(vectors)
    index.add(vectors)
    build = time.thread_time() - start
    index.nprobe = probes

    times = []
    for _ in range(rounds + 1):
        start = time.thread_time()
        found = [index.search(query.reshape(1, -1), k)[1][0].tolist() for query in queries]
        times.append((time.thread_time() - start) / len(queries))
    times = sorted(times[1:])
    print(json.dumps({"build": build, "query_ms": times[len(times) // 2] * 1e3, "found": found}))


if __name__ == "__main__":
    main()
