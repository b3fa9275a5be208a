// corpus_eval test input (corpus "broken"): does not compile.
__global__ void broken( { }
