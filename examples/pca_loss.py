"""A PCA loss through np.linalg.svd: the error of the rank-k reconstruction of centred
data, differentiated with respect to the data, and checked against central differences.

Run: python examples/pca_loss.py
"""
import numpy as np

import s2s_ad


def reconstruction_error(data, k=2):
    """squared error of projecting the centred rows onto the top k right singular vectors
    (invariant to the vectors' signs, which LAPACK picks)"""
    centred = data - np.mean(data, axis=0)
    u, s, vh = np.linalg.svd(centred, full_matrices=False)
    top = vh[:k]
    projected = centred @ top.T @ top
    return np.sum((centred - projected) ** 2)


def central_differences(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


def main():
    data = np.random.default_rng(0).standard_normal((20, 5)) * np.array([3.0, 2.0, 1.0, 0.5, 0.2])
    gradient = s2s_ad.grad(reconstruction_error)(data)
    expected = central_differences(reconstruction_error, data)
    np.testing.assert_allclose(gradient, expected, rtol=1e-5, atol=1e-7)
    print(f"loss {reconstruction_error(data):.6f}; gradient matches central differences "
          f"(max |difference| {np.max(np.abs(gradient - expected)):.2e})")


if __name__ == "__main__":
    main()
