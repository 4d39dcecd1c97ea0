// Kaldi fbank, first half: one workgroup per frame of the batch, with kaldi-native-fbank's float32 order of operations
// (docs/reference-pipeline.md §13; KNF:feature-window.cc ProcessWindow): copies frame_length samples (× waveform_scale),
// removes the frame mean (ONE thread sums the samples in order, as knf's float loop), pre-emphasizes
// (x[i] - fl(p·x[i-1]) on the DC-removed values, x[0] - fl(p·x[0])), multiplies by the Povey window, zero-pads to
// FFT_SIZE. Low mel bins of loud frames are as small as the float32 rounding noise of these steps, so they follow
// knf's roundings exactly: a fused x - p·y there alone moves those log energies by up to ~8e-3.
// The FFT runs in float-float arithmetic (each value hi + lo, ~46 significant bits): knf's FFT is in double, and a
// float32 FFT's rounding noise (~1e-7 of the frame's energy in every bin) is what low mel bins of loud frames hold
// after pre-emphasis, so a float32 FFT moves their log energies by up to ~1e-2. The spectrum is then rounded to f32
// and squared in f32 (KNF:feature-functions.cc ComputePowerSpectrum), power |X_k|^2 written for k < FFT_SIZE/2.
// A second entry point, `real_fft`, runs the same FFT on plain frames and writes the one-sided complex spectrum.
//
// Float-float products are exact sums of 12-bit × 12-bit partial products (operands split by masking mantissa bits,
// not by Veltkamp's multiply), so fused multiply-adds a compiler may form leave every result unchanged.
//
// FFT: radix-2 decimation in time over positions in bit-reversed input order. Thread t computes butterflies
// b = t + r·WORKGROUP_SIZE (r < BUTTERFLIES) of every stage in registers; between stages the values move to the
// threads that need them through `exchange`, one f32 component at a time (4·FFT_SIZE bytes of workgroup memory).

// FFT size, a power of two (512 at 16 kHz; ≤ 2048 for kaldi_power, ≤ 4096 for real_fft); log2 of it.
override FFT_SIZE: u32 = 512u;
override LOG2_FFT_SIZE: u32 = 9u;
// Threads per workgroup: min(FFT_SIZE/2, max(64, FFT_SIZE/16)) (compute.ts fftConstants).
override WORKGROUP_SIZE: u32 = 64u;
// Butterflies per thread and stage: FFT_SIZE / 2 / WORKGROUP_SIZE, at most MAX_BUTTERFLIES.
override BUTTERFLIES: u32 = 4u;
const MAX_BUTTERFLIES: u32 = 8u;
// Values per thread: 2·MAX_BUTTERFLIES.
const MAX_VALUES: u32 = 16u;

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
@group(0) @binding(4) var<storage, read> twiddles: array<vec4f>;     // [FFT_SIZE/2] e^{-2πik/N}: (cos hi, cos lo, -sin hi, -sin lo)
@group(0) @binding(5) var<storage, read_write> power: array<f32>;    // [frames, FFT_SIZE/2]

var<workgroup> exchange: array<f32, FFT_SIZE>;
var<workgroup> frame_mean: f32;

// ---- float-float arithmetic: a value is vec2f(hi, lo) with hi = fl(hi + lo) ----

// a = hi + lo with hi holding the top 12 significant bits: both halves multiply exactly with another 12-bit half.
fn split12(a: f32) -> vec2f {
  let hi = bitcast<f32>(bitcast<u32>(a) & 0xfffff000u);
  return vec2f(hi, a - hi);
}

// s + e = a + b exactly (Knuth).
fn two_sum(a: f32, b: f32) -> vec2f {
  let s = a + b;
  let bb = s - a;
  return vec2f(s, (a - (s - bb)) + (b - bb));
}

// s + e = a + b exactly when |a| ≥ |b| (Dekker).
fn fast_two_sum(a: f32, b: f32) -> vec2f {
  let s = a + b;
  return vec2f(s, b - (s - a));
}

fn ff_add(a: vec2f, b: vec2f) -> vec2f {
  let s = two_sum(a.x, b.x);
  return fast_two_sum(s.x, s.y + (a.y + b.y));
}

fn ff_mul(a: vec2f, b: vec2f) -> vec2f {
  let x = split12(a.x);
  let y = split12(b.x);
  let p = x.x * y.x;                                         // exact
  let q = two_sum(x.x * y.y, x.y * y.x);                     // exact: ~2^-12 of p
  let r = x.y * y.y + (a.x * b.y + a.y * b.x) + q.y;         // ~2^-24 of p, rounded at ~2^-48 of p
  let s = fast_two_sum(p, q.x);
  return fast_two_sum(s.x, s.y + r);
}

// fl(a·b), the f32 product rounded once, computed so that no multiply feeds an add: a plain `x - p * y` may be fused
// into one rounding by the compiler, and knf rounds p·y first (pre-emphasis). The partial products are exact, their
// exact sum is the product, and c + tail rounds it (tail is inexact, by 2^-48 of the product, only in sums of 25
// significant bits, so the result is fl(a·b) but where the product lies within 2^-48 of a rounding midpoint).
fn mul_rounded(a: f32, b: f32) -> f32 {
  let x = split12(a);
  let y = split12(b);
  let s = two_sum(x.x * y.x, x.x * y.y);
  let c = two_sum(s.x, x.y * y.x);
  return c.x + ((s.y + c.y) + x.y * y.y);
}

// Complex float-float product; a complex value is vec4f(re hi, re lo, im hi, im lo).
fn cf_mul(a: vec4f, w: vec4f) -> vec4f {
  let re = ff_add(ff_mul(a.xy, w.xy), -ff_mul(a.zw, w.zw));
  let im = ff_add(ff_mul(a.xy, w.zw), ff_mul(a.zw, w.xy));
  return vec4f(re, im);
}

fn cf_add(a: vec4f, b: vec4f) -> vec4f {
  return vec4f(ff_add(a.xy, b.xy), ff_add(a.zw, b.zw));
}

// ---- the FFT ----

fn bit_reversed(i: u32) -> u32 {
  return reverseBits(i) >> (32u - LOG2_FFT_SIZE);
}

// Positions (i, j = i + 2^s) of butterfly b in stage s.
fn butterfly_positions(b: u32, s: u32) -> vec2u {
  let half = 1u << s;
  let i = (b / half) * 2u * half + b % half;
  return vec2u(i, i + half);
}

// After `exchange[p]` holds the real input sample p (natural order, imaginary parts 0) for p < FFT_SIZE, runs the FFT and
// leaves in values[2r], values[2r + 1] the spectrum at positions butterfly_positions(tid + r·WORKGROUP_SIZE, last stage),
// i.e. bins b and b + FFT_SIZE/2 for b = tid + r·WORKGROUP_SIZE. Ends with a barrier (exchange may be reused).
fn fft_real_input(tid: u32, values: ptr<function, array<vec4f, MAX_VALUES>>) {
  for (var r = 0u; r < BUTTERFLIES; r++) {
    let p = butterfly_positions(tid + r * WORKGROUP_SIZE, 0u);
    (*values)[2u * r] = vec4f(exchange[bit_reversed(p.x)], 0.0, 0.0, 0.0);
    (*values)[2u * r + 1u] = vec4f(exchange[bit_reversed(p.y)], 0.0, 0.0, 0.0);
  }
  for (var s = 0u; s < LOG2_FFT_SIZE; s++) {
    let half = 1u << s;
    for (var r = 0u; r < BUTTERFLIES; r++) {
      let b = tid + r * WORKGROUP_SIZE;
      let w = twiddles[(b % half) * (FFT_SIZE / (2u * half))];
      let x = (*values)[2u * r];
      let t = cf_mul((*values)[2u * r + 1u], w);
      (*values)[2u * r] = cf_add(x, t);
      (*values)[2u * r + 1u] = cf_add(x, -t);
    }
    if (s + 1u == LOG2_FFT_SIZE) { break; }
    // move every value to the thread that reads its position in stage s + 1, one component at a time
    for (var c = 0u; c < 4u; c++) {
      workgroupBarrier();
      for (var r = 0u; r < BUTTERFLIES; r++) {
        let p = butterfly_positions(tid + r * WORKGROUP_SIZE, s);
        exchange[p.x] = (*values)[2u * r][c];
        exchange[p.y] = (*values)[2u * r + 1u][c];
      }
      workgroupBarrier();
      for (var r = 0u; r < BUTTERFLIES; r++) {
        let p = butterfly_positions(tid + r * WORKGROUP_SIZE, s + 1u);
        (*values)[2u * r][c] = exchange[p.x];
        (*values)[2u * r + 1u][c] = exchange[p.y];
      }
    }
  }
  workgroupBarrier();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kaldi_power(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) tid: u32) {
  let frame = wid.x + wid.y * params.workgroups_x;
  if (frame >= params.total_frames) { return; }
  let start = frame_starts[frame];
  let length = params.frame_length;
  for (var i = tid; i < FFT_SIZE; i += WORKGROUP_SIZE) {
    var v = 0.0;
    if (i < length) { v = waveform[start + i] * params.waveform_scale; }
    exchange[i] = v;
  }
  workgroupBarrier();
  if (tid == 0u) {
    var sum = 0.0;
    for (var i = 0u; i < length; i++) { sum += exchange[i]; }
    frame_mean = sum / f32(length);
  }
  workgroupBarrier();
  let mean = frame_mean;
  // windowed values of this thread's samples, written back once every thread has read its neighbours
  var windowed: array<f32, MAX_VALUES>;
  for (var r = 0u; r < 2u * BUTTERFLIES; r++) {
    let i = tid + r * WORKGROUP_SIZE;
    var v = 0.0;
    if (i < length) {
      let x = exchange[i] - mean;
      var previous = x;
      if (i > 0u) { previous = exchange[i - 1u] - mean; }
      v = (x - mul_rounded(params.preemphasis, previous)) * window[i];
    }
    windowed[r] = v;
  }
  workgroupBarrier();
  for (var r = 0u; r < 2u * BUTTERFLIES; r++) { exchange[tid + r * WORKGROUP_SIZE] = windowed[r]; }
  workgroupBarrier();
  var values: array<vec4f, MAX_VALUES>;
  fft_real_input(tid, &values);
  for (var r = 0u; r < BUTTERFLIES; r++) {
    let k = tid + r * WORKGROUP_SIZE; // bin k < FFT_SIZE/2 is values[2r] after the last stage
    let x = values[2u * r];
    let re = x.x + x.y;
    let im = x.z + x.w;
    power[frame * (FFT_SIZE / 2u) + k] = re * re + im * im;
  }
}

// Plain real FFT of frames stored back to back ([frames, FFT_SIZE] in `waveform`, frame_starts unused): one-sided
// spectrum [frames, FFT_SIZE/2 + 1] as (re, im) pairs in `power`, each rounded from float-float to f32.
@compute @workgroup_size(WORKGROUP_SIZE)
fn real_fft(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) tid: u32) {
  let frame = wid.x + wid.y * params.workgroups_x;
  if (frame >= params.total_frames) { return; }
  for (var i = tid; i < FFT_SIZE; i += WORKGROUP_SIZE) { exchange[i] = waveform[frame * FFT_SIZE + i]; }
  workgroupBarrier();
  var values: array<vec4f, MAX_VALUES>;
  fft_real_input(tid, &values);
  let bins = FFT_SIZE / 2u + 1u;
  for (var r = 0u; r < BUTTERFLIES; r++) {
    let k = tid + r * WORKGROUP_SIZE;
    let x = values[2u * r];
    power[2u * (frame * bins + k)] = x.x + x.y;
    power[2u * (frame * bins + k) + 1u] = x.z + x.w;
    if (k == 0u) { // bin FFT_SIZE/2 (Nyquist) is position FFT_SIZE/2, the second value of butterfly 0
      let y = values[1];
      power[2u * (frame * bins + FFT_SIZE / 2u)] = y.x + y.y;
      power[2u * (frame * bins + FFT_SIZE / 2u) + 1u] = y.z + y.w;
    }
  }
}
