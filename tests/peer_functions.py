"""The functions of numpy, numpy.linalg and numpy.fft that autograd, Tangent or JAX
differentiate and whose values are real and differentiable: issue 15's list, which
`python -m tests.coverage --peers` checks ("N of M work in grad and jvp").

Built from facts about the three projects (the names each one's public numpy API
differentiates, read from their sources: autograd's numpy_vjps/numpy_jvps/linalg/fft
registrations and the functions its numpy wrapper builds from them, Tangent's grads, and
the names jax.numpy, jax.numpy.linalg and jax.numpy.fft export), kept where the installed
numpy has the name, and left out where no derivative is wanted:
- integer or boolean results (argmax, argsort, nonzero, isnan, comparisons, logical and
  bit operations, unique, histograms, searchsorted, matrix_rank, shape queries);
- piecewise constant results (floor, ceil, round, rint, trunc, fix, sign, floor_divide,
  heaviside, spacing, nextafter, divmod, frexp);
- arrays made from shapes, sizes or files (zeros, ones, arange, eye, tri, window
  functions, fromfunction, load, fftfreq, rfftfreq);
- printing, configuration and planning (array_repr, set_printoptions, einsum_path);
- complex results for real input (roots, sort_complex, linalg.eigvals);
- functions writing into their argument (fill_diagonal, place, put, put_along_axis);
- functions applying a Python function (apply_along_axis, apply_over_axes).
numpy 2 aliases (acos, concat, pow, permute_dims, ...) are names of their own here, as
in JAX.
"""

PEER_FUNCTIONS = """
    abs absolute acos acosh add amax amin angle append arccos arccosh arcsin arcsinh
    arctan arctan2 arctanh array array_split asarray asin asinh astype atan atan2 atanh
    atleast_1d atleast_2d atleast_3d average block broadcast_arrays broadcast_to cbrt
    choose clip column_stack compress concat concatenate conj conjugate convolve copy
    copysign corrcoef correlate cos cosh cov cross cumprod cumsum cumulative_prod
    cumulative_sum deg2rad degrees delete diag diagflat diagonal diff divide dot dsplit
    dstack ediff1d einsum exp exp2 expand_dims expm1 extract fabs fft.fft fft.fft2
    fft.fftn fft.fftshift fft.hfft fft.ifft fft.ifft2 fft.ifftn fft.ifftshift fft.ihfft
    fft.irfft fft.irfft2 fft.irfftn fft.rfft fft.rfft2 fft.rfftn flip fliplr flipud
    float_power fmax fmin fmod full full_like geomspace gradient hsplit hstack hypot i0
    imag inner insert interp kron ldexp linalg.cholesky linalg.cond linalg.cross
    linalg.det linalg.diagonal linalg.eig linalg.eigh linalg.eigvalsh linalg.inv
    linalg.lstsq linalg.matmul linalg.matrix_norm linalg.matrix_power
    linalg.matrix_transpose linalg.multi_dot linalg.norm linalg.outer linalg.pinv
    linalg.qr linalg.slogdet linalg.solve linalg.svd linalg.svdvals linalg.tensordot
    linalg.tensorinv linalg.tensorsolve linalg.trace linalg.vecdot linalg.vector_norm
    linspace log log10 log1p log2 logaddexp logaddexp2 logspace matmul matrix_transpose
    matvec max maximum mean median meshgrid min minimum mod modf moveaxis multiply
    nan_to_num nancumprod nancumsum nanmax nanmean nanmedian nanmin nanpercentile
    nanprod nanquantile nanstd nansum nanvar negative outer pad partition percentile
    permute_dims piecewise poly polyadd polyder polydiv polyfit polyint polymul polysub
    polyval positive pow power prod ptp quantile rad2deg radians ravel real
    real_if_close reciprocal remainder repeat reshape resize roll rollaxis rot90 select
    sin sinc sinh sort split sqrt square squeeze stack std subtract sum swapaxes take
    take_along_axis tan tanh tensordot tile trace transpose trapezoid tril trim_zeros
    triu true_divide unstack unwrap vander var vdot vecdot vecmat vsplit vstack where
""".split()
