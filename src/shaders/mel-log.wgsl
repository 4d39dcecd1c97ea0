// Kaldi fbank, second half: one thread per (frame, mel bin). Sums the triangular filter's weights times the power
// spectrum and writes ln(max(E, FLT_EPSILON)), row-major [frames, num_bins].

override WORKGROUP_SIZE: u32 = 64u;

const FLT_EPSILON: f32 = 1.1920928955078125e-7;

struct MelLogParams {
  total_frames: u32,   // frames in the batch
  num_bins: u32,       // mel bins (80)
  fft_bins: u32,       // power values per frame (FFT_SIZE/2)
}

// One triangle: FFT bins start .. start + length - 1, weights at weight_offset.
struct MelFilter {
  start: u32,
  length: u32,
  weight_offset: u32,
}

@group(0) @binding(0) var<uniform> params: MelLogParams;
@group(0) @binding(1) var<storage, read> power: array<f32>;        // [frames, fft_bins]
@group(0) @binding(2) var<storage, read> filters: array<MelFilter>; // [num_bins]
@group(0) @binding(3) var<storage, read> weights: array<f32>;
@group(0) @binding(4) var<storage, read_write> features: array<f32>; // [frames, num_bins]

@compute @workgroup_size(WORKGROUP_SIZE)
fn mel_log(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let index = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
  if (index >= params.total_frames * params.num_bins) { return; }
  let frame = index / params.num_bins;
  let triangle = filters[index % params.num_bins];
  var energy = 0.0;
  for (var i = 0u; i < triangle.length; i++) {
    energy += weights[triangle.weight_offset + i] * power[frame * params.fft_bins + triangle.start + i];
  }
  features[index] = log(max(energy, FLT_EPSILON));
}
