// Waveform path: mono (channel mean, summed left to right) then layer norm over the whole utterance,
// (x - mean) / sqrt(var_pop + eps), one workgroup per example; two passes (mean, then squared deviations) reduced in
// workgroup memory.

override WORKGROUP_SIZE: u32 = 256u;

struct LayerNormParams {
  num_examples: u32,
  eps: f32,        // 1e-5 (torch default)
  normalize: u32,  // 0: mono only, 1: mono then layer norm
}

// Channel c of this example is input[input_offset + c * length .. + length); output at output_offset.
struct WaveformExample {
  input_offset: u32,
  output_offset: u32,
  length: u32,
  channels: u32,
}

@group(0) @binding(0) var<uniform> params: LayerNormParams;
@group(0) @binding(1) var<storage, read> examples: array<WaveformExample>;
@group(0) @binding(2) var<storage, read> input: array<f32>;
@group(0) @binding(3) var<storage, read_write> output: array<f32>;

var<workgroup> partial: array<f32, WORKGROUP_SIZE>;

fn reduce_partial(tid: u32) -> f32 {
  for (var stride = WORKGROUP_SIZE / 2u; stride > 0u; stride = stride / 2u) {
    if (tid < stride) { partial[tid] += partial[tid + stride]; }
    workgroupBarrier();
  }
  let total = partial[0];
  workgroupBarrier();
  return total;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn layer_norm(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) tid: u32) {
  if (wid.x >= params.num_examples) { return; }
  let example = examples[wid.x];
  let n = example.length;
  var sum = 0.0;
  for (var i = tid; i < n; i += WORKGROUP_SIZE) {
    var v = input[example.input_offset + i];
    for (var c = 1u; c < example.channels; c++) { v += input[example.input_offset + c * n + i]; }
    v = v / f32(example.channels);
    output[example.output_offset + i] = v;
    sum += v;
  }
  partial[tid] = sum;
  workgroupBarrier();
  if (params.normalize == 0u) { return; }
  let mean = reduce_partial(tid) / f32(n);
  var squares = 0.0;
  for (var i = tid; i < n; i += WORKGROUP_SIZE) {
    let d = output[example.output_offset + i] - mean;
    squares += d * d;
  }
  partial[tid] = squares;
  workgroupBarrier();
  let scale = inverseSqrt(reduce_partial(tid) / f32(n) + params.eps);
  for (var i = tid; i < n; i += WORKGROUP_SIZE) {
    output[example.output_offset + i] = (output[example.output_offset + i] - mean) * scale;
  }
}
