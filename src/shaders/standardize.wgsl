// fbank standardization: one thread per (example, mel bin). Over the example's frames: mean, unbiased std (T - 1),
// then (x - mean) / std in place, no epsilon. Where std is 0 or undefined (one frame, a constant bin) it writes NaN
// explicitly (WGSL does not promise IEEE results for 0/0) and the std to `stats` so the host can report the bins.

override WORKGROUP_SIZE: u32 = 64u;

struct StandardizeParams {
  num_examples: u32,
  num_bins: u32,
  nan_bits: u32,   // 0x7fc00000: a runtime NaN (WGSL rejects NaN in constant expressions)
}

// Rows first_frame .. first_frame + frames - 1 of `features` belong to this example.
struct ExampleFrames {
  first_frame: u32,
  frames: u32,
}

@group(0) @binding(0) var<uniform> params: StandardizeParams;
@group(0) @binding(1) var<storage, read> examples: array<ExampleFrames>;
@group(0) @binding(2) var<storage, read_write> features: array<f32>; // [frames, num_bins]
@group(0) @binding(3) var<storage, read_write> stats: array<vec2f>;  // [examples, num_bins] (mean, std)

@compute @workgroup_size(WORKGROUP_SIZE)
fn standardize(@builtin(global_invocation_id) gid: vec3u) {
  let index = gid.x;
  if (index >= params.num_examples * params.num_bins) { return; }
  let example = examples[index / params.num_bins];
  let bin = index % params.num_bins;
  let n = example.frames;
  var sum = 0.0;
  var lowest = 3.4e38;
  var highest = -3.4e38;
  for (var t = 0u; t < n; t++) {
    let v = features[(example.first_frame + t) * params.num_bins + bin];
    sum += v;
    lowest = min(lowest, v);
    highest = max(highest, v);
  }
  let mean = sum / f32(max(n, 1u));
  var squares = 0.0;
  for (var t = 0u; t < n; t++) {
    let d = features[(example.first_frame + t) * params.num_bins + bin] - mean;
    squares += d * d;
  }
  var deviation = 0.0;
  if (n > 1u && highest > lowest) { deviation = sqrt(squares / f32(n - 1u)); }
  stats[index] = vec2f(mean, deviation);
  let nan = bitcast<f32>(params.nan_bits);
  for (var t = 0u; t < n; t++) {
    let at = (example.first_frame + t) * params.num_bins + bin;
    if (deviation > 0.0) { features[at] = (features[at] - mean) / deviation; } else { features[at] = nan; }
  }
}
