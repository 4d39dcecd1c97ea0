// Kaldi fbank, first half: one workgroup per frame of the batch. Copies frame_length samples (× waveform_scale), removes
// the frame mean, pre-emphasizes (x[i] -= p·x[i-1] for i = L-1..1, then x[0] -= p·x[0]), multiplies by the Povey window,
// zero-pads to FFT_SIZE, runs an in-place radix-2 decimation-in-time FFT in workgroup memory (input loaded in
// bit-reversed order, twiddles computed in double on the CPU) and writes the power |X_k|^2 for k < FFT_SIZE/2.
// A second entry point, `real_fft`, runs the same FFT on plain frames and writes the one-sided complex spectrum.

// FFT size, a power of two (512 at 16 kHz); log2 of it.
override FFT_SIZE: u32 = 512u;
override LOG2_FFT_SIZE: u32 = 9u;
// Threads per workgroup, one per butterfly when FFT_SIZE/2 ≤ 256.
override WORKGROUP_SIZE: u32 = 256u;

struct FbankPowerParams {
  frame_length: u32,     // samples per frame (400 at 16 kHz)
  total_frames: u32,     // frames in the batch
  workgroups_x: u32,     // dispatch width (frames above 65535 use y)
  waveform_scale: f32,   // 32768
  preemphasis: f32,      // 0.97
}

@group(0) @binding(0) var<uniform> params: FbankPowerParams;
@group(0) @binding(1) var<storage, read> waveform: array<f32>;       // all examples, concatenated
@group(0) @binding(2) var<storage, read> frame_starts: array<u32>;   // [frames] first sample of each frame in `waveform`
@group(0) @binding(3) var<storage, read> window: array<f32>;         // [frame_length] Povey window
@group(0) @binding(4) var<storage, read> twiddles: array<vec2f>;     // [FFT_SIZE/2] e^{-2πik/N}
@group(0) @binding(5) var<storage, read_write> power: array<f32>;    // [frames, FFT_SIZE/2]

var<workgroup> spectrum: array<vec2f, FFT_SIZE>;
var<workgroup> samples: array<f32, FFT_SIZE>;
var<workgroup> partial: array<f32, WORKGROUP_SIZE>;

fn bit_reversed(i: u32) -> u32 {
  return reverseBits(i) >> (32u - LOG2_FFT_SIZE);
}

// Sum of partial[0..WORKGROUP_SIZE) into partial[0] (WORKGROUP_SIZE is a power of two).
fn reduce_partial(tid: u32) {
  for (var stride = WORKGROUP_SIZE / 2u; stride > 0u; stride = stride / 2u) {
    if (tid < stride) { partial[tid] += partial[tid + stride]; }
    workgroupBarrier();
  }
}

fn fft_in_place(tid: u32) {
  for (var s = 0u; s < LOG2_FFT_SIZE; s++) {
    let half = 1u << s;
    for (var b = tid; b < FFT_SIZE / 2u; b += WORKGROUP_SIZE) {
      let k = b % half;
      let i = (b / half) * 2u * half + k;
      let j = i + half;
      let w = twiddles[k * (FFT_SIZE / (2u * half))];
      let x = spectrum[j];
      let t = vec2f(x.x * w.x - x.y * w.y, x.x * w.y + x.y * w.x);
      spectrum[j] = spectrum[i] - t;
      spectrum[i] = spectrum[i] + t;
    }
    workgroupBarrier();
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kaldi_power(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) tid: u32) {
  let frame = wid.x + wid.y * params.workgroups_x;
  if (frame >= params.total_frames) { return; }
  let start = frame_starts[frame];
  let length = params.frame_length;
  var sum = 0.0;
  for (var i = tid; i < FFT_SIZE; i += WORKGROUP_SIZE) {
    var v = 0.0;
    if (i < length) { v = waveform[start + i] * params.waveform_scale; }
    samples[i] = v;
    sum += v;
  }
  partial[tid] = sum;
  workgroupBarrier();
  reduce_partial(tid);
  let mean = partial[0] / f32(length);
  for (var i = tid; i < FFT_SIZE; i += WORKGROUP_SIZE) {
    var v = 0.0;
    if (i < length) {
      let x = samples[i] - mean;
      var previous = x;
      if (i > 0u) { previous = samples[i - 1u] - mean; }
      v = (x - params.preemphasis * previous) * window[i];
    }
    spectrum[bit_reversed(i)] = vec2f(v, 0.0);
  }
  workgroupBarrier();
  fft_in_place(tid);
  for (var k = tid; k < FFT_SIZE / 2u; k += WORKGROUP_SIZE) {
    let x = spectrum[k];
    power[frame * (FFT_SIZE / 2u) + k] = x.x * x.x + x.y * x.y;
  }
}

// Plain real FFT of frames stored back to back ([frames, FFT_SIZE] in `waveform`, frame_starts unused): one-sided
// spectrum [frames, FFT_SIZE/2 + 1] as (re, im) pairs in `power`.
@compute @workgroup_size(WORKGROUP_SIZE)
fn real_fft(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) tid: u32) {
  let frame = wid.x + wid.y * params.workgroups_x;
  if (frame >= params.total_frames) { return; }
  for (var i = tid; i < FFT_SIZE; i += WORKGROUP_SIZE) {
    spectrum[bit_reversed(i)] = vec2f(waveform[frame * FFT_SIZE + i], 0.0);
  }
  workgroupBarrier();
  fft_in_place(tid);
  let bins = FFT_SIZE / 2u + 1u;
  for (var k = tid; k < bins; k += WORKGROUP_SIZE) {
    power[2u * (frame * bins + k)] = spectrum[k].x;
    power[2u * (frame * bins + k) + 1u] = spectrum[k].y;
  }
}
