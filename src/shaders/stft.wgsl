// Short-time DFT for n_fft values that are not powers of two (400 for the reference SpecAugment and the display
// spectrogram): one thread per (frame, bin), a direct DFT over the frame with twiddles looked up in a table of
// e^{-2πim/N} computed in double on the CPU (index k·n mod N, so no large angles lose precision). 400 multiply-adds per
// output: 80k per frame, cheap next to a Bluestein chain of three 1024-point FFTs and far more accurate in f32.
// Frames may start before the example (center=True): samples are then taken with reflect padding, as torch.stft.
// `power_db` turns a spectrum into 10·log10(max(|X|², floor)) for display.

override WORKGROUP_SIZE: u32 = 64u;

struct StftParams {
  n_fft: u32,          // frame length = DFT size (400)
  bins: u32,           // n_fft/2 + 1
  total_frames: u32,   // frames in the batch
  floor: f32,          // power floor for power_db (1e-10)
}

// A frame: samples start .. start + n_fft - 1 of the example at sample_offset with num_samples samples (start < 0 or
// past the end reflect, as center=True padding).
struct StftFrame {
  sample_offset: u32,
  num_samples: u32,
  start: i32,
}

@group(0) @binding(0) var<uniform> params: StftParams;
@group(0) @binding(1) var<storage, read> waveform: array<f32>;
@group(0) @binding(2) var<storage, read> frames: array<StftFrame>;
@group(0) @binding(3) var<storage, read> window: array<f32>;           // [n_fft]
@group(0) @binding(4) var<storage, read> twiddles: array<vec2f>;       // [n_fft] (cos, sin)(2πm/N)
@group(0) @binding(5) var<storage, read_write> spectrum: array<vec2f>; // [frames, bins]
@group(0) @binding(6) var<storage, read_write> decibels: array<f32>;   // [frames, bins] (power_db only)

fn reflect(i: i32, n: i32) -> i32 {
  var j = i;
  if (j < 0) { j = -j; }
  if (j >= n) { j = 2 * (n - 1) - j; }
  return j;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn dft_forward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let index = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
  if (index >= params.total_frames * params.bins) { return; }
  let frame = frames[index / params.bins];
  let k = index % params.bins;
  var acc = vec2f(0.0, 0.0);
  var m = 0u;
  for (var n = 0u; n < params.n_fft; n++) {
    let at = reflect(frame.start + i32(n), i32(frame.num_samples));
    let x = waveform[frame.sample_offset + u32(at)] * window[n];
    let w = twiddles[m];
    acc += vec2f(x * w.x, -x * w.y);
    m += k;
    if (m >= params.n_fft) { m -= params.n_fft; }
  }
  spectrum[index] = acc;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn power_db(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let index = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
  if (index >= params.total_frames * params.bins) { return; }
  let x = spectrum[index];
  // 10 / ln(10)
  decibels[index] = 4.342944819032518 * log(max(x.x * x.x + x.y * x.y, params.floor));
}
