// nvopt's program-corpus test: a two-file reduction.
#pragma once
double gpu_sum(const float *x, int n);
