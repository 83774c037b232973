"""Workloads written the way users write numpy code, each with an expert's hand-written gradient.

Used by benchmarks/run_user.py. Unlike workloads.py, nothing here was written with s2s_ad in
mind: Python-float and np.float64 scalar loops, loops over tuples and lists of floats,
parameters unpacked from an array, `zip` over time steps, `x.mean()` / `.T` / `.sum()`
methods, integer-label fancy indexing, `sum(generator)`, np.linalg, float32 inputs.

Every workload is a `UserWorkload`:

    name    row label
    f       the plain Python function differentiated
    make    make(small=False) -> the argument tuple (small=True: sizes for finite differences)
    wrt     s2s_ad.grad(f, wrt=wrt)
    hand    the hand-written gradient, same arguments, same return layout as grad(f, wrt)
            (a single gradient for an int wrt, a tuple otherwise)

The hand-written gradients are what an expert writes for speed: closed forms where the
math gives them (`p - y`, softmax minus one-hot, Black-Scholes delta and vega), reverse
loops that keep only what they need, Python floats (`.tolist()`) in scalar loops, in-place
updates where they save memory. They are dtype-generic: given float32 arrays they compute
in float32.

    python benchmarks/user_workloads.py      # check_all(): s2s_ad vs hand vs finite differences

All data comes from seeded numpy Generators (deterministic).
"""
import sys
from dataclasses import dataclass, field
from typing import Callable

import numpy as np


@dataclass
class UserWorkload:
    name: str
    f: Callable
    make: Callable            # make(small=False) -> args tuple
    wrt: object
    hand: Callable
    kind: str = "array"       # "scalar": Python-number workload
    dtype: str = "float64"
    tags: tuple = ()          # "memory": peak-memory workload; "guard": guard overhead measured
    note: str = ""
    extra: dict = field(default_factory=dict)


def _rng(seed):
    return np.random.default_rng(seed)


from user_scalar import (  # noqa: E402  (the workloads, by group)
    forced_recurrence,
    forced_recurrence_grad,
    make_recurrence_floats,
    make_recurrence_np64,
    horner,
    horner_grad,
    make_horner_tuple,
    make_horner_list,
    lotka_volterra_loss,
    lotka_volterra_unpacked,
    lotka_volterra_grad,
    make_lotka_volterra,
    black_scholes_call,
    black_scholes_greeks,
    make_black_scholes,
    reaction_diffusion_loss,
    reaction_diffusion_grad,
    make_reaction_diffusion,
    logistic_softplus,
    logistic_softplus_grad,
    make_softplus_100,
    make_softplus_10000,
    make_softplus_10000_f32,
    log_sum_exp,
    log_sum_exp_grad,
    make_log_sum_exp,
    softmax_cross_entropy,
    softmax_cross_entropy_grad,
    make_softmax_xent,
    huber_regression,
    huber_regression_grad,
    make_huber,
    gmm_nll,
    gmm_nll_grad,
    make_gmm,
    matrix_factorization_loss,
    matrix_factorization_grad,
    make_matrix_factorization,
    tv_denoise_objective,
    tv_denoise_grad,
    make_tv)
from user_scalar_sims import (  # noqa: E402
    kepler_positions,
    kepler_positions_grad,
    make_kepler,
    asian_softplus,
    asian_softplus_grad,
    make_asian)
from user_scalar_fits import (  # noqa: E402
    decay_cauchy_fit,
    decay_cauchy_fit_grad,
    make_decay_cauchy,
    pendulum_misfit,
    pendulum_misfit_grad,
    make_pendulum,
    cubic_roots_sum,
    cubic_roots_sum_grad,
    make_cubic_roots,
    running_average_errors,
    running_average_errors_grad,
    make_running_average,
    grouped_logistic_nll,
    grouped_logistic_nll_grad,
    make_grouped_logistic,
    heteroscedastic_nll,
    heteroscedastic_nll_grad,
    make_heteroscedastic)
from user_scalar_models import (  # noqa: E402
    logistic_growth_sse,
    logistic_growth_sse_grad,
    make_logistic_growth,
    huber_line_fit,
    huber_line_fit_grad,
    make_huber_line,
    damped_oscillator_miss,
    damped_oscillator_miss_grad,
    make_damped_oscillator)
from user_scalar_training import (  # noqa: E402
    driven_oscillator_misfit, driven_oscillator_misfit_grad, make_driven_oscillator,
    sgd_logistic_online_loss, sgd_logistic_online_loss_grad, make_sgd_logistic,
    polynomial_sse, polynomial_sse_grad, make_polynomial_fit)
from user_scalar_filters import (  # noqa: E402
    kalman_level_nll, kalman_level_nll_grad, make_kalman_level,
    secant_roots_loss, secant_roots_loss_grad, make_secant_roots)
from user_scalar_numerics import (  # noqa: E402
    rk4_decay_misfit,
    rk4_decay_misfit_grad,
    make_rk4_decay,
    fixed_point_fit,
    fixed_point_fit_grad,
    make_fixed_point,
    poisson_pairs_nll,
    poisson_pairs_nll_grad,
    make_poisson_pairs)
from user_models import (  # noqa: E402  (the workloads, by group)
    layer_norm_mse,
    layer_norm_mse_grad,
    make_layer_norm,
    make_layer_norm_f32,
    batch_norm_regression,
    batch_norm_regression_grad,
    make_batch_norm,
    attention_loss,
    attention_grad,
    make_attention,
    mlp_regression,
    mlp_regression_grad,
    make_mlp_regression,
    gp_nll_cholesky,
    gp_nll_slogdet,
    gp_nll_grad,
    make_gp,
    rnn_loss,
    rnn_grad,
    make_rnn_small,
    make_rnn_large,
    make_rnn_small_f32,
    sigmoid,
    lstm_loss,
    lstm_grad,
    make_lstm,
    conv1d_sum_loss,
    conv1d_loop_loss,
    conv1d_grad,
    make_conv1d,
    tanh_weighted_sum,
    tanh_weighted_sum_grad,
    make_big_elementwise,
    gaussian_nll_elementwise,
    gaussian_nll_elementwise_grad,
    make_gaussian_nll_elementwise,
    log_cosh_loss,
    log_cosh_loss_grad,
    make_log_cosh)
from user_recurrent import make_mgu, mgu_grad, mgu_loss  # noqa: E402
from user_slices import (  # noqa: E402
    conv2d_slices_grad,
    conv2d_slices_loss,
    gru_grad,
    gru_loss,
    laplacian_smoothing_grad,
    laplacian_smoothing_loss,
    make_gru,
    make_laplacian_smoothing,
    heat_ring_grad,
    heat_ring_loss,
    make_conv2d,
    make_heat_ring,
    make_moving_average,
    moving_average_fit,
    moving_average_fit_grad)
from user_linalg import (  # noqa: E402
    gaussian_loglik_grad, gaussian_loglik_inv, mahalanobis_loglik_cholesky, make_gaussian_loglik,
    make_ridge_validation, ridge_validation_loss, ridge_validation_loss_grad,
    make_multi_output_gp, multi_output_gp_grad, multi_output_gp_nll,
    blr_evidence_nll, blr_evidence_nll_grad, make_blr_evidence,
    kernel_ridge_validation, kernel_ridge_validation_grad, make_kernel_ridge,
    ou_process_nll, ou_process_nll_grad, make_ou_process,
    mixed_model_nll, mixed_model_nll_grad, make_mixed_model,
)
from user_loops import (  # noqa: E402
    cooling_rod_grad,
    cooling_rod_loss,
    holt_sse,
    holt_sse_grad,
    make_cooling_rod,
    make_holt)
from user_losses import (  # noqa: E402
    categorical_nll,
    categorical_nll_grad,
    make_categorical,
    make_poisson_log_rate,
    poisson_log_rate_nll,
    poisson_log_rate_nll_grad,
    multilabel_bce,
    multilabel_bce_grad,
    make_multilabel_bce,
    ridge_mse,
    ridge_mse_grad,
    make_ridge,
    weighted_brier,
    weighted_brier_grad,
    make_weighted_brier)
from user_elementwise import (  # noqa: E402
    student_t_nll, student_t_nll_grad, make_student_t, pinball_loss, pinball_loss_grad,
    make_pinball, smooth_l1, smooth_l1_grad, make_smooth_l1, focal_loss, focal_loss_grad,
    make_focal, squared_hinge_svm, squared_hinge_svm_grad, make_squared_hinge, laplace_nll,
    laplace_nll_grad, make_laplace_nll, smooth_l1_regression, smooth_l1_regression_grad,
    make_smooth_l1_regression, svr_eps_insensitive, svr_eps_insensitive_grad,
    make_svr_eps_insensitive, huber_capped_fit, huber_capped_fit_grad, make_huber_capped_fit,
    tweedie_nll, tweedie_nll_grad, make_tweedie, triplet_loss, triplet_loss_grad, make_triplet)
from user_arrays import (  # noqa: E402
    distillation_loss,
    distillation_loss_grad,
    make_distillation,
    whittaker_grad,
    whittaker_objective,
    make_whittaker,
    tikhonov_denoise,
    tikhonov_denoise_grad,
    make_tikhonov,
    conv2d_batch_relu_loss,
    conv2d_batch_relu_grad,
    make_conv2d_batch,
    diag_gmm_nll,
    diag_gmm_nll_grad,
    make_diag_gmm)
from user_layers import (  # noqa: E402
    gelu_mlp, gelu_mlp_grad, make_gelu_mlp, make_rms_norm, rms_norm_regression,
    rms_norm_regression_grad)
from user_modules import make_module_mlp, module_mse, module_mse_grad  # noqa: E402
from user_lookups import (  # noqa: E402
    make_mlp_softmax, make_skipgram, make_soft_kmeans, mlp_softmax_ce, mlp_softmax_ce_grad,
    skipgram_grad, skipgram_loss, soft_kmeans_distortion, soft_kmeans_distortion_grad)



# =========================================================================================
WORKLOADS = [
    UserWorkload("scalar recurrence, Python floats, 10^4 steps", forced_recurrence,
                 make_recurrence_floats, (0, 1), forced_recurrence_grad, "scalar"),
    UserWorkload("scalar recurrence, np.float64, 10^4 steps", forced_recurrence,
                 make_recurrence_np64, (0, 1), forced_recurrence_grad, "scalar"),
    UserWorkload("Horner, tuple of 30 floats", horner, make_horner_tuple, (0, 1), horner_grad,
                 "scalar", tags=("guard",)),
    UserWorkload("Horner, list of 30 floats", horner, make_horner_list, (0, 1), horner_grad,
                 "scalar", tags=("guard",)),
    UserWorkload("Lotka-Volterra, theta[0..3], 200 Euler steps", lotka_volterra_loss,
                 make_lotka_volterra, 0, lotka_volterra_grad, "scalar"),
    UserWorkload("Lotka-Volterra, a, b, c, d = theta, 200 steps", lotka_volterra_unpacked,
                 make_lotka_volterra, 0, lotka_volterra_grad, "scalar"),
    UserWorkload("Black-Scholes call (math.erf), delta+vega", black_scholes_call,
                 make_black_scholes, (0, 4), black_scholes_greeks, "scalar", tags=("guard",)),
    UserWorkload("Kepler by Newton, 6 steps x 50 anomalies (list)", kepler_positions,
                 make_kepler, 0, kepler_positions_grad, "scalar", tags=("guard",)),
    UserWorkload("Monte-Carlo GBM path, 250 steps (tuple), softplus", asian_softplus,
                 make_asian, (0, 1), asian_softplus_grad, "scalar"),
    UserWorkload("pendulum fit by length and damping, 1000 steps (list)", pendulum_misfit,
                 make_pendulum, (0, 1), pendulum_misfit_grad, "scalar"),
    UserWorkload("Newton roots of x^3 + p x = t, 8 steps x 100 targets", cubic_roots_sum,
                 make_cubic_roots, 0, cubic_roots_sum_grad, "scalar"),
    UserWorkload("running average errors, list of 500 floats", running_average_errors,
                 make_running_average, (0, 1), running_average_errors_grad, "scalar"),
    UserWorkload("Holt trend smoothing, list of 200 floats", holt_sse, make_holt, (0, 1),
                 holt_sse_grad, "scalar"),
    UserWorkload("logistic growth fitted to 400 counts (list), r and K", logistic_growth_sse,
                 make_logistic_growth, (0, 1), logistic_growth_sse_grad, "scalar"),
    UserWorkload("Huber line fit, if/else on floats, 500 points (lists)", huber_line_fit,
                 make_huber_line, (0, 1), huber_line_fit_grad, "scalar", tags=("guard",)),
    UserWorkload("damped oscillator, while loop, 2000 steps, k and c",
                 damped_oscillator_miss, make_damped_oscillator, (0, 1),
                 damped_oscillator_miss_grad, "scalar"),
    UserWorkload("RK4 on floats, y' = -k y + a sin t, 200 steps (list)", rk4_decay_misfit,
                 make_rk4_decay, (0, 1), rk4_decay_misfit_grad, "scalar"),
    UserWorkload("fixed-point x = s b + c cos x, 30 steps x 60 points (lists)",
                 fixed_point_fit, make_fixed_point, (0, 1), fixed_point_fit_grad, "scalar"),
    UserWorkload("Poisson NLL over a list of 500 (x, y) pairs", poisson_pairs_nll,
                 make_poisson_pairs, (0, 1), poisson_pairs_nll_grad, "scalar"),
    UserWorkload("decay fit, Cauchy loss over a list of 400 (t, y, sigma) records",
                 decay_cauchy_fit, make_decay_cauchy, (0, 1), decay_cauchy_fit_grad,
                 "scalar"),
    UserWorkload("grouped logistic NLL, 3 weights over a list of 400 (u, v, k, n) records",
                 grouped_logistic_nll, make_grouped_logistic, (0, 1, 2),
                 grouped_logistic_nll_grad, "scalar"),
    UserWorkload("heteroscedastic Gaussian NLL, mean and log-sd linear, list of 400 (x, y)",
                 heteroscedastic_nll, make_heteroscedastic, (0, 1, 2, 3),
                 heteroscedastic_nll_grad, "scalar"),
    UserWorkload("driven damped oscillator, for over 1000 observations (list), omega and zeta",
                 driven_oscillator_misfit, make_driven_oscillator, (0, 1),
                 driven_oscillator_misfit_grad, "scalar"),
    UserWorkload("online SGD logistic regression over 400 (x, y) pairs, by w0, b0, lr",
                 sgd_logistic_online_loss, make_sgd_logistic, (0, 1, 2),
                 sgd_logistic_online_loss_grad, "scalar"),
    UserWorkload("polynomial least squares, for over 5 coefficients (list), 200 points",
                 polynomial_sse, make_polynomial_fit, 0, polynomial_sse_grad, "scalar"),
    UserWorkload("Kalman filter NLL, local level, list of 400 floats, log q and log r",
                 kalman_level_nll, make_kalman_level, (0, 1), kalman_level_nll_grad,
                 "scalar"),
    UserWorkload("secant roots of x + a sin x + b x^3 = t to 1e-10 (while), 100 targets",
                 secant_roots_loss, make_secant_roots, (0, 1), secant_roots_loss_grad,
                 "scalar"),
    UserWorkload("cooling rod, n=2000, 200 steps, rate parameters", cooling_rod_loss,
                 make_cooling_rod, (0, 1, 2), cooling_rod_grad),
    UserWorkload("reaction-diffusion, n=1000, 100 steps", reaction_diffusion_loss,
                 make_reaction_diffusion, (0, 1, 2), reaction_diffusion_grad),
    UserWorkload("softplus logistic N=100 D=10", logistic_softplus, make_softplus_100, 0,
                 logistic_softplus_grad, tags=("guard",)),
    UserWorkload("softplus logistic N=10000 D=100", logistic_softplus, make_softplus_10000, 0,
                 logistic_softplus_grad),
    UserWorkload("log-sum-exp by hand, n=10^4", log_sum_exp, make_log_sum_exp, 0,
                 log_sum_exp_grad, tags=("guard",)),
    UserWorkload("softmax cross-entropy, int labels, 512x64x10", softmax_cross_entropy,
                 make_softmax_xent, (0, 1), softmax_cross_entropy_grad),
    UserWorkload("Huber regression (np.where) 2000x20", huber_regression, make_huber, 0,
                 huber_regression_grad, tags=("guard",)),
    UserWorkload("1-D Gaussian mixture NLL, N=2000 K=5", gmm_nll, make_gmm, (0, 1, 2),
                 gmm_nll_grad),
    UserWorkload("masked matrix factorisation 500x400 k=16", matrix_factorization_loss,
                 make_matrix_factorization, (0, 1), matrix_factorization_grad),
    UserWorkload("TV denoising 256x256 (slicing)", tv_denoise_objective, make_tv, 0,
                 tv_denoise_grad),
    UserWorkload("layer norm (D,) scale/shift, 256x512", layer_norm_mse, make_layer_norm,
                 (0, 1, 2), layer_norm_mse_grad),
    UserWorkload("batch norm + ReLU + linear, 256x128", batch_norm_regression, make_batch_norm,
                 (0, 1, 2, 3), batch_norm_regression_grad),
    UserWorkload("single-head attention T=128 d=64->32", attention_loss, make_attention,
                 (1, 2, 3), attention_grad, tags=("guard",)),
    UserWorkload("ReLU MLP regression 256x32x128", mlp_regression, make_mlp_regression,
                 (0, 1, 2, 3), mlp_regression_grad),
    UserWorkload("GP NLL, cholesky + solve, N=200", gp_nll_cholesky, make_gp, 0, gp_nll_grad),
    UserWorkload("GP NLL, slogdet + solve, N=200", gp_nll_slogdet, make_gp, 0, gp_nll_grad),
    UserWorkload("Bayesian linear regression evidence, slogdet + solve, 300x20",
                 blr_evidence_nll, make_blr_evidence, 0, blr_evidence_nll_grad),
    UserWorkload("kernel ridge validation error, solve of a vector, 400 + 200 points",
                 kernel_ridge_validation, make_kernel_ridge, 0, kernel_ridge_validation_grad),
    UserWorkload("OU process NLL, cholesky + two solves of a vector, 250 times",
                 ou_process_nll, make_ou_process, 0, ou_process_nll_grad),
    UserWorkload("linear mixed model NLL, cholesky + one solve of a vector, 240 obs",
                 mixed_model_nll, make_mixed_model, 0, mixed_model_nll_grad),
    UserWorkload("ridge validation loss, solve of normal equations, 1000x200",
                 ridge_validation_loss, make_ridge_validation, 0,
                 ridge_validation_loss_grad),
    UserWorkload("Gaussian log-likelihood, slogdet + inv, 500x150", gaussian_loglik_inv,
                 make_gaussian_loglik, 0, gaussian_loglik_grad),
    UserWorkload("Gaussian log-likelihood, cholesky + solve, 500x150",
                 mahalanobis_loglik_cholesky, make_gaussian_loglik, 0, gaussian_loglik_grad),
    UserWorkload("GP with 20 outputs, cholesky + solve of a matrix, N=300",
                 multi_output_gp_nll, make_multi_output_gp, 0, multi_output_gp_grad),
    UserWorkload("RNN T=20 H=64 B=32 (zip)", rnn_loss, make_rnn_small, (0, 1, 2, 3), rnn_grad),
    UserWorkload("RNN T=100 H=256 B=32 (zip)", rnn_loss, make_rnn_large, (0, 1, 2, 3), rnn_grad),
    UserWorkload("LSTM T=20 H=32 B=16", lstm_loss, make_lstm, (0, 1, 2, 3), lstm_grad),
    UserWorkload("conv1d, sum(generator), n=10^4 K=9", conv1d_sum_loss, make_conv1d, (0, 1),
                 conv1d_grad),
    UserWorkload("conv1d, for-loop of slices, n=10^4 K=9", conv1d_loop_loss, make_conv1d,
                 (0, 1), conv1d_grad),
    UserWorkload("float32 softplus logistic N=10000 D=100", logistic_softplus,
                 make_softplus_10000_f32, 0, logistic_softplus_grad, dtype="float32"),
    UserWorkload("float32 layer norm 256x512", layer_norm_mse, make_layer_norm_f32, (0, 1, 2),
                 layer_norm_mse_grad, dtype="float32"),
    UserWorkload("float32 RNN T=20 H=64 B=32", rnn_loss, make_rnn_small_f32, (0, 1, 2, 3),
                 rnn_grad, dtype="float32"),
    UserWorkload("sum(tanh(x) * x**2), x of 10^7", tanh_weighted_sum, make_big_elementwise, 0,
                 tanh_weighted_sum_grad, tags=("memory",)),
    UserWorkload("Gaussian NLL elementwise, 1000x5000", gaussian_nll_elementwise,
                 make_gaussian_nll_elementwise, (0, 1), gaussian_nll_elementwise_grad,
                 tags=("memory",)),
    UserWorkload("log-cosh loss, 50x200x500", log_cosh_loss, make_log_cosh, 0,
                 log_cosh_loss_grad, tags=("memory",)),
    UserWorkload("Poisson NLL of log-rates, 1000x2000", poisson_log_rate_nll,
                 make_poisson_log_rate, 0, poisson_log_rate_nll_grad, tags=("memory",)),
    UserWorkload("categorical NLL, max shifted by hand, 2000x50", categorical_nll,
                 make_categorical, 0, categorical_nll_grad),
    UserWorkload("multi-label BCE on logits (logaddexp), 512x64x20", multilabel_bce,
                 make_multilabel_bce, (0, 1), multilabel_bce_grad),
    UserWorkload("ridge regression MSE + L2, 2000x50", ridge_mse, make_ridge, 0,
                 ridge_mse_grad),
    UserWorkload("Student-t NLL elementwise, 1000x2000", student_t_nll, make_student_t,
                 (0, 1), student_t_nll_grad, tags=("memory",)),
    UserWorkload("pinball (quantile) loss with np.maximum, 5000x20", pinball_loss,
                 make_pinball, 0, pinball_loss_grad),
    UserWorkload("smooth-L1 with np.abs and np.minimum, 1000x1000", smooth_l1,
                 make_smooth_l1, 0, smooth_l1_grad, tags=("memory",)),
    UserWorkload("binary focal loss (np.where, gamma=2), 1000x1000", focal_loss, make_focal,
                 0, focal_loss_grad, tags=("memory",)),
    UserWorkload("weighted Brier score, sigmoid written out, 1000x1000", weighted_brier,
                 make_weighted_brier, 0, weighted_brier_grad, tags=("memory",)),
    UserWorkload("squared-hinge linear SVM + L2, 20000x50", squared_hinge_svm,
                 make_squared_hinge, 0, squared_hinge_svm_grad),
    UserWorkload("Laplace NLL elementwise (np.abs), 1000x2000", laplace_nll,
                 make_laplace_nll, (0, 1), laplace_nll_grad, tags=("memory",)),
    UserWorkload("smooth-L1 fit with a threshold beta, 200000x3", smooth_l1_regression,
                 make_smooth_l1_regression, 0, smooth_l1_regression_grad),
    UserWorkload("SVR squared epsilon-insensitive loss, 1000x1000", svr_eps_insensitive,
                 make_svr_eps_insensitive, 0, svr_eps_insensitive_grad, tags=("memory",)),
    UserWorkload("Huber fit, np.minimum of |r| at 1.35, 100000x10", huber_capped_fit,
                 make_huber_capped_fit, 0, huber_capped_fit_grad),
    UserWorkload("Tweedie NLL, log link, mu ** (1 - p), 1000x1000", tweedie_nll, make_tweedie,
                 0, tweedie_nll_grad, tags=("memory",)),
    UserWorkload("triplet margin loss, np.maximum, 4096x64", triplet_loss, make_triplet,
                 (0, 1, 2), triplet_loss_grad),
    UserWorkload("distillation soft-label CE at a temperature, 1024x64x100",
                 distillation_loss, make_distillation, 0, distillation_loss_grad),
    UserWorkload("Whittaker smoother, second differences by slices, n=10^5",
                 whittaker_objective, make_whittaker, 0, whittaker_grad),
    UserWorkload("Tikhonov image denoising, differences along both axes, 512x512",
                 tikhonov_denoise, make_tikhonov, 0, tikhonov_denoise_grad),
    UserWorkload("conv2d by slices, 5x5 filter + bias over 16 images 64x64, ReLU",
                 conv2d_batch_relu_loss, make_conv2d_batch, (0, 1), conv2d_batch_relu_grad),
    UserWorkload("diagonal Gaussian mixture NLL, logsumexp over K=8, 2000x4",
                 diag_gmm_nll, make_diag_gmm, (0, 1, 2), diag_gmm_nll_grad),
    UserWorkload("conv2d by slices, 3x3 filter over 256x256", conv2d_slices_loss, make_conv2d,
                 (0, 1), conv2d_slices_grad),
    UserWorkload("heat equation on a ring, np.roll stencil, 50 steps n=2*10^4",
                 heat_ring_loss, make_heat_ring, (0, 1), heat_ring_grad),
    UserWorkload("moving average by cumsum and slices, n=10^5 w=25", moving_average_fit,
                 make_moving_average, 0, moving_average_fit_grad),
    UserWorkload("1-D Laplacian smoothness penalty on a 128x2000 batch", laplacian_smoothing_loss,
                 make_laplacian_smoothing, 0, laplacian_smoothing_grad),
    UserWorkload("GRU T=20 H=32 B=16, gates sliced from one product", gru_loss, make_gru,
                 (0, 1, 2, 3), gru_grad),
    UserWorkload("minimal gated unit T=30 H=24 B=16, logistic helper by np.tanh, loss every step",
                 mgu_loss, make_mgu, (0, 1, 2, 3, 4), mgu_grad),
    UserWorkload("RMSNorm (D,) weight + linear, 256x512->64", rms_norm_regression,
                 make_rms_norm, (0, 1, 2), rms_norm_regression_grad),
    UserWorkload("PyTorch-style Sequential(Linear, ReLU, Linear) model, 256x64x128x10",
                 module_mse, make_module_mlp, 0, module_mse_grad),
    UserWorkload("GELU (tanh form) MLP 256x64x256x10", gelu_mlp, make_gelu_mlp, (0, 1, 2),
                 gelu_mlp_grad),
    UserWorkload("skip-gram embeddings E[idx] . C[idx], logaddexp loss, 5000x64, 4096 pairs",
                 skipgram_loss, make_skipgram, (0, 1), skipgram_grad),
    UserWorkload("soft k-means distortion, softmax assignments, 2000x8, K=16",
                 soft_kmeans_distortion, make_soft_kmeans, 0, soft_kmeans_distortion_grad),
    UserWorkload("tanh MLP softmax CE + weight decay, 512x64x128x10", mlp_softmax_ce,
                 make_mlp_softmax, (0, 1, 2, 3), mlp_softmax_ce_grad),
]


def by_name(name):
    return next(w for w in WORKLOADS if w.name == name)


# =========================================================================================
# Rejected: code users write that s2s_ad refused. Each was replaced above by another way
# users write the same thing (the replacement is named). `error` is what s2s_ad said
# (first line), recorded when this file was written; recheck_rejected() tries them again.
# =========================================================================================
def lstm_split_loss(W, U, b, Wy, xs, y):
    H = U.shape[0]
    h = np.zeros((xs.shape[1], H))
    c = np.zeros((xs.shape[1], H))
    for x_t in xs:
        i, f, o, g = np.split(x_t @ W + h @ U + b, 4, axis=1)
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
    return np.mean((h @ Wy - y) ** 2)


# variants rejected when the workloads were chosen (`error` is what was raised then);
# recheck_rejected() tries them again: the np.split LSTM is now accepted and correct
REJECTED = [
    dict(name="LSTM with gates from np.split", f=lstm_split_loss, make=make_lstm,
         wrt=(0, 1, 2, 3), hand=lstm_grad, replaced_by="LSTM T=20 H=32 B=16",
         error="MissingDerivativeError: no derivative is known for `np.split(...)`"),
]


# =========================================================================================
# Checking
# =========================================================================================
def _as_tuple(g):
    if _is_model(g):                     # a model's gradient: its arrays, in order
        return tuple(value for _, value in _leaves(g))
    return g if isinstance(g, tuple) else (g,)


def _is_model(value):
    return hasattr(value, "__dict__") and not isinstance(value, (np.ndarray, np.generic))


def _leaves(value, path=()):
    """(path, array or float) for each number an object (or a list of them) holds."""
    if isinstance(value, (np.ndarray, float, np.generic)):
        yield path, value
    elif isinstance(value, (list, tuple)):
        for k, item in enumerate(value):
            yield from _leaves(item, path + (k,))
    elif _is_model(value):
        for name, item in vars(value).items():
            yield from _leaves(item, path + (name,))


def _replaced(value, path, new):
    """A deep copy of the object `value` with the leaf at `path` replaced by `new`."""
    import copy
    out = copy.deepcopy(value)
    parent = out
    for step in path[:-1]:
        parent = parent[step] if isinstance(step, int) else getattr(parent, step)
    if isinstance(path[-1], int):
        parent[path[-1]] = new
    else:
        setattr(parent, path[-1], new)
    return out


def _positions(f, wrt):
    import inspect
    names = [p for p in inspect.signature(f).parameters]
    items = wrt if isinstance(wrt, (tuple, list)) else (wrt,)
    return [names.index(i) if isinstance(i, str) else i for i in items]


def _to64(a):
    if isinstance(a, np.ndarray) and a.dtype == np.float32:
        return a.astype(np.float64)
    return a


def finite_differences(f, args, wrt, eps=1e-6):
    """Central differences of f w.r.t. each wrt argument (float, np.float64, array or a
    list of floats)."""
    out = []
    for pos in _positions(f, wrt):
        x = args[pos]
        if _is_model(x):                 # a model: each array it holds, in order
            for path, leaf in _leaves(x):
                part = finite_differences(
                    lambda v: f(*args[:pos], _replaced(x, path, v), *args[pos + 1:]),
                    (leaf,), 0, eps)
                out.extend(part)
            continue

        def at(value):
            return float(f(*args[:pos], value, *args[pos + 1:]))

        if isinstance(x, np.ndarray):
            g = np.zeros(x.shape)
            for idx in np.ndindex(x.shape):
                h = eps * max(1.0, abs(float(x[idx])))
                xp, xm = x.copy(), x.copy()
                xp[idx] += h
                xm[idx] -= h
                g[idx] = (at(xp) - at(xm)) / (2 * h)
        elif isinstance(x, (list, tuple)):      # a list of floats: item by item, same type
            g = []
            for k, item in enumerate(x):
                h = eps * max(1.0, abs(float(item)))
                xp, xm = list(x), list(x)
                xp[k] += h
                xm[k] -= h
                g.append((at(type(x)(xp)) - at(type(x)(xm))) / (2 * h))
        else:
            h = eps * max(1.0, abs(float(x)))
            g = (at(type(x)(x + h)) - at(type(x)(x - h))) / (2 * h)
        out.append(g)
    return tuple(out)


def _max_rel(a, b):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    scale = max(np.max(np.abs(b)), 1e-300)
    return float(np.max(np.abs(a - b)) / scale)


def compare(got, want, rtol, atol_rel):
    """None if every gradient agrees (elementwise rtol, plus atol_rel * max|want| of that
    gradient), else a description of the worst disagreement."""
    got, want = _as_tuple(got), _as_tuple(want)
    if len(got) != len(want):
        return f"{len(got)} gradients, expected {len(want)}"
    for k, (g, w) in enumerate(zip(got, want)):
        if np.shape(g) != np.shape(w):
            return f"gradient {k}: shape {np.shape(g)}, expected {np.shape(w)}"
        g64, w64 = np.asarray(g, dtype=np.float64), np.asarray(w, dtype=np.float64)
        if not np.all(np.isfinite(g64)):
            return f"gradient {k}: non-finite values"
        atol = atol_rel * max(float(np.max(np.abs(w64))), 1e-300)
        if not np.allclose(g64, w64, rtol=rtol, atol=atol):
            idx = (np.unravel_index(np.argmax(np.abs(g64 - w64)), np.shape(w64))
                   if np.ndim(w64) else ())
            return (f"gradient {k}: max rel diff {_max_rel(g64, w64):.3g} "
                    f"(at {idx}: {g64[idx]!r} vs {w64[idx]!r})")
    return None


def dtype_of(g):
    return tuple(getattr(x, "dtype", type(x).__name__) for x in _as_tuple(g))


def check_workload(wl, bench=True):
    """Returns a list of problems (empty when all agree) and notes (dtype of the outputs)."""
    import s2s_ad
    problems, notes = [], []
    df = s2s_ad.grad(wl.f, wrt=wl.wrt)
    # small sizes: hand vs finite differences (float64), s2s_ad vs hand
    args = wl.make(small=True)
    args64 = tuple(_to64(a) for a in args)
    fd = finite_differences(wl.f, args64, wl.wrt)
    hand64 = wl.hand(*args64)
    why = compare(hand64, fd, rtol=1e-5, atol_rel=1e-6)
    if why:
        problems.append(f"hand-written vs finite differences (small): {why}")
    why = compare(df(*args64), fd, rtol=1e-5, atol_rel=1e-6)
    if why:
        problems.append(f"s2s_ad vs finite differences (small, float64): {why}")
    tight = (1e-4, 1e-5) if wl.dtype == "float32" else (1e-7, 1e-9)
    got = df(*args)
    why = compare(got, wl.hand(*args), *tight)
    if why:
        problems.append(f"s2s_ad vs hand-written (small): {why}")
    if bench:
        args = wl.make()
        got, want = df(*args), wl.hand(*args)
        why = compare(got, want, *tight)
        if why:
            problems.append(f"s2s_ad vs hand-written (benchmark size): {why}")
        if wl.dtype == "float32":
            want64 = wl.hand(*(_to64(a) for a in args))
            why = compare(got, want64, 1e-3, 1e-4)
            if why:
                problems.append(f"s2s_ad float32 vs hand-written float64: {why}")
    gd, hd = dtype_of(got), dtype_of(wl.hand(*args))
    if [str(x) for x in gd] != [str(x) for x in hd]:
        notes.append(f"dtypes: s2s_ad {gd}, hand-written {hd}")
    return problems, notes


def check_all(bench=True, verbose=True):
    """Check every workload; raise AssertionError listing every mismatch."""
    failures = []
    for wl in WORKLOADS:
        try:
            problems, notes = check_workload(wl, bench=bench)
        except Exception as exc:           # s2s_ad rejected it: a finding
            problems, notes = [f"raised {type(exc).__name__}: {str(exc).splitlines()[0]}"], []
        if verbose:
            print(f"{'ok  ' if not problems else 'FAIL'} {wl.name}"
                  + "".join(f"\n       {p}" for p in problems + notes), file=sys.stderr)
        failures += [f"{wl.name}: {p}" for p in problems]
    if failures:
        raise AssertionError("gradient mismatches:\n  " + "\n  ".join(failures))
    return True


def recheck_rejected():
    """Try the rejected variants again: (name, None or the error now raised)."""
    import s2s_ad
    out = []
    for r in REJECTED:
        try:
            args = r["make"](small=True)
            df = s2s_ad.grad(r["f"], wrt=r["wrt"])
            why = compare(df(*args), finite_differences(r["f"], args, r["wrt"]), 1e-5, 1e-6)
            out.append((r["name"], why and f"wrong: {why}"))
        except Exception as exc:
            out.append((r["name"], f"{type(exc).__name__}: {str(exc).splitlines()[0]}"))
    return out


if __name__ == "__main__":
    check_all(bench="--small-only" not in sys.argv)
    for name, err in recheck_rejected():
        print(f"rejected: {name}: {err or 'now accepted and correct'}", file=sys.stderr)
    print(f"{len(WORKLOADS)} workloads: all gradients agree", file=sys.stderr)
