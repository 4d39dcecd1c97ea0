// Side-by-side reference for the fbank benchmarks: kaldi-native-fbank (knf), built at the commit fairseq2 pins, run the
// way fairseq2n's kaldi_fbank_computer runs it (waveform × 32768, per frame a zeroed buffer, knf::ExtractWindow then
// knf::FbankComputer::Compute, dither 0, 80 bins, knf defaults otherwise), on one thread.
// Not part of mixscope: bench/knf/build.sh compiles it against a knf checkout outside the repository.
//
// Usage: knf-fbank <sample-rate> <pcm.f32> <lengths.txt> <passes> [features.f32]
//   sample-rate  Hz of every utterance (knf frame lengths follow it: 400/160 samples at 16 kHz)
//   pcm.f32      float32 little-endian samples in [-1, 1], utterances back to back (bench/.cache/speech/pcm.f32)
//   lengths.txt  samples per utterance, whitespace separated, in order
//   passes       timed passes over all utterances; the least CPU time is reported
//   features.f32 optional: writes every utterance's [frames, 80] float32 features back to back
// Prints one JSON line: {"knf":"f08a90c","sampleRate":16000,"utterances":N,"frames":F,"passes":P,"cpuMs":…,"wallMs":…}
// (the least process CPU time and the least wall time of the passes, ms)
#include <cstdlib>
#include <ctime>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <vector>

#include "kaldi-native-fbank/csrc/feature-fbank.h"
#include "kaldi-native-fbank/csrc/feature-window.h"

#ifndef KNF_COMMIT
#define KNF_COMMIT "unknown"
#endif

static double clock_ms(clockid_t clock) {
  timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    std::cerr << "usage: knf-fbank <sample-rate> <pcm.f32> <lengths.txt> <passes> [features.f32]\n";
    return 2;
  }
  const float sample_rate = static_cast<float>(std::atof(argv[1]));
  ++argv, --argc;  // the rest as before: pcm, lengths, passes, features
  std::ifstream pcm_file(argv[1], std::ios::binary | std::ios::ate);
  if (!pcm_file) { std::cerr << "knf-fbank: cannot open " << argv[1] << "\n"; return 1; }
  std::vector<float> pcm(static_cast<size_t>(pcm_file.tellg()) / sizeof(float));
  pcm_file.seekg(0);
  pcm_file.read(reinterpret_cast<char *>(pcm.data()), pcm.size() * sizeof(float));
  std::ifstream lengths_file(argv[2]);
  std::vector<size_t> lengths;
  size_t total = 0;
  for (size_t n; lengths_file >> n;) { lengths.push_back(n); total += n; }
  if (total > pcm.size()) { std::cerr << "knf-fbank: lengths add up to " << total << " > " << pcm.size() << " samples\n"; return 1; }
  const int passes = std::atoi(argv[3]);

  knf::FbankOptions opts;
  opts.frame_opts.samp_freq = sample_rate;
  opts.frame_opts.dither = 0.0f;
  opts.mel_opts.num_bins = 80;
  knf::FbankComputer computer(opts);
  knf::FeatureWindowFunction window_fn(opts.frame_opts);
  const int32_t dim = computer.Dim();

  std::vector<float> features, wave, frame;
  double best = 1e300, best_wall = 1e300;
  long long frames_total = 0;
  for (int p = 0; p < passes; ++p) {
    const bool keep = p == 0 && argc > 4;
    frames_total = 0;
    const double t0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_ms(CLOCK_MONOTONIC);
    size_t offset = 0;
    for (size_t n : lengths) {
      wave.assign(pcm.begin() + offset, pcm.begin() + offset + n);
      offset += n;
      for (float &v : wave) v *= 32768.0f;  // fairseq2: waveform * 2^15 before the fbank
      const int32_t frames = knf::NumFrames(static_cast<int64_t>(n), opts.frame_opts);
      const size_t base = features.size();
      if (keep) features.resize(base + static_cast<size_t>(frames) * dim);
      std::vector<float> row(dim);
      for (int32_t f = 0; f < frames; ++f) {
        std::fill(frame.begin(), frame.end(), 0.0f);  // the FFT ran in place: zero the padding again (as knf's OnlineFbank)
        knf::ExtractWindow(0, wave, f, opts.frame_opts, window_fn, &frame, nullptr);
        computer.Compute(0.0f, 1.0f, &frame, keep ? features.data() + base + static_cast<size_t>(f) * dim : row.data());
      }
      frames_total += frames;
    }
    const double ms = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - t0, wall = clock_ms(CLOCK_MONOTONIC) - w0;
    if (ms < best) best = ms;
    if (wall < best_wall) best_wall = wall;
  }
  if (argc > 4) {
    std::ofstream out(argv[4], std::ios::binary);
    out.write(reinterpret_cast<const char *>(features.data()), features.size() * sizeof(float));
  }
  std::printf("{\"knf\":\"%s\",\"sampleRate\":%g,\"utterances\":%zu,\"frames\":%lld,\"passes\":%d,\"cpuMs\":%.3f,\"wallMs\":%.3f}\n",
              KNF_COMMIT, sample_rate, lengths.size(), frames_total, passes, best, best_wall);
  return 0;
}
