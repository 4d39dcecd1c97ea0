// Reference SpecAugment after the STFT (stft.wgsl): `mask_frames` zeroes whole STFT frames (both of the reference's
// masks act on the time axis), `istft` rebuilds the waveform as torch.istft without `length`: per output sample, the
// inverse real DFT of the (at most two, hop = n_fft/2) frames covering it, times the window, overlap-added and divided
// by the summed squared window; n_fft/2 trimmed at both ends, so the output has hop·(T − 1) samples.

override WORKGROUP_SIZE: u32 = 64u;

struct SpecAugmentParams {
  n_fft: u32,          // 400
  hop: u32,            // 200
  bins: u32,           // n_fft/2 + 1
  total_frames: u32,   // STFT frames in the batch
  num_examples: u32,
  total_samples: u32,  // output samples in the batch
}

// Frames first_frame .. first_frame + frames - 1 of `spectrum` belong to this example; its output starts at
// output_offset and has hop·(frames − 1) samples.
struct IstftExample {
  first_frame: u32,
  frames: u32,
  output_offset: u32,
}

@group(0) @binding(0) var<uniform> params: SpecAugmentParams;
@group(0) @binding(1) var<storage, read_write> spectrum: array<vec2f>;   // [frames, bins]
@group(0) @binding(2) var<storage, read> masked: array<u32>;             // [frames] 1 = zero this frame
@group(0) @binding(3) var<storage, read> examples: array<IstftExample>;
@group(0) @binding(4) var<storage, read> window: array<f32>;             // [n_fft]
@group(0) @binding(5) var<storage, read> twiddles: array<vec2f>;         // [n_fft] (cos, sin)(2πm/N)
@group(0) @binding(6) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn mask_frames(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let index = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
  if (index >= params.total_frames * params.bins) { return; }
  if (masked[index / params.bins] != 0u) { spectrum[index] = vec2f(0.0, 0.0); }
}

// Sample n of the inverse real DFT of frame t (imaginary parts of bins 0 and n_fft/2 ignored, as irfft).
fn inverse_sample(t: u32, n: u32) -> f32 {
  let base = t * params.bins;
  let half = params.n_fft / 2u;
  var acc = spectrum[base].x;
  if ((n & 1u) == 0u) { acc += spectrum[base + half].x; } else { acc -= spectrum[base + half].x; }
  var m = n;
  var sum = 0.0;
  for (var k = 1u; k < half; k++) {
    let x = spectrum[base + k];
    let w = twiddles[m];
    sum += x.x * w.x - x.y * w.y;
    m += n;
    if (m >= params.n_fft) { m -= params.n_fft; }
  }
  return (acc + 2.0 * sum) / f32(params.n_fft);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn istft(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let index = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
  if (index >= params.total_samples) { return; }
  var e = 0u;
  while (e + 1u < params.num_examples && examples[e + 1u].output_offset <= index) { e++; }
  let example = examples[e];
  let p = index - example.output_offset + params.n_fft / 2u;
  var acc = 0.0;
  var envelope = 0.0;
  var t = min(p / params.hop, example.frames - 1u);
  loop {
    if (t * params.hop + params.n_fft <= p) { break; }
    let n = p - t * params.hop;
    let w = window[n];
    acc += w * inverse_sample(example.first_frame + t, n);
    envelope += w * w;
    if (t == 0u) { break; }
    t--;
  }
  output[index] = acc / envelope;
}
