;; Kaldi fbank frames in WebAssembly SIMD: the same arithmetic as FbankComputer's TypeScript loop (src/engine/features/dsp/fbank.ts
;; windowFrame + RealFft.forward + melLog), operation for operation, on FOUR frames at once (frames t .. t + 3 in lanes
;; 0..3). IEEE arithmetic has one result per operation, so each lane's values are bit for bit the TypeScript ones:
;; the float32 stages (framing, DC removal, pre-emphasis, window, power, mel sums) run as f32x4 operations, which equal
;; TypeScript's double operation rounded by Math.fround (for + − × ÷ of float32 operands the double rounding is exact);
;; the FFT runs in double on two f64x2 pairs (frames t, t + 1 and t + 2, t + 3) with the same twiddles in the same
;; order (radix-4 of fft-radix.ts on the half-size complex frame, then the split step of fft.ts); ln is the host's
;; Math.log, imported.
;;
;; Assembled by scripts/build-wasm.ts (wabt) into fbank.wasm and fbank-wasm-bytes.ts; a test checks that both
;; match this file. Memory layout (byte offsets) is set by the host (fbank-wasm.ts) in a config block at offset 0:
;;    0 frame_length L      4 frame_shift        8 half = padded/2      12 first_radix (4, 2 or 1)
;;   16 num_bins           20 first_bin         24 window f32[L]       28 reversed i32[half]
;;   32 twiddles f64[Σ 6q] (radix-4 stages in loop order: w1, w2, w3 re/im per k)
;;   36 split_cos f64[half] 40 split_sin f64[half] 44 segment_end i32[num_bins + 1]
;;   48 current_weight f32[half]                 52 next_weight f32[half]
;;   56, 60 frame pair A, B: v128[2·half], one f64x2 per sample (zero padding past L written once by the host)
;;   64, 68 buf pair A, B: v128[2·half] (complex FFT, interleaved re, im)
;;   72 power v128[half] (f32x4 per bin: lanes 0, 1 from pair A, 2, 3 from pair B)
;;   80 waveform_scale f32  84 preemphasis f32 (0.97)  88 log floor f32 (FLT_EPSILON)
(module
  (import "env" "log" (func $log (param f64) (result f64)))
  (memory (export "memory") 1)

  ;; Frames A (lanes 0, 1) and B (lanes 2, 3) ← scaled, DC-removed, pre-emphasized, windowed samples of the four
  ;; frames at byte offsets $w0..$w3, in float32: v = w·scale, sum += v, mean = sum/L; x[i] = (cur − p·prev)·window[i]
  ;; with cur = x[i] − mean and prev the previous cur (x[0]'s own first). The samples wait in pair A's buffer as f32x4.
  (func $window_quad (param $w0 i32) (param $w1 i32) (param $w2 i32) (param $w3 i32)
    (local $L i32) (local $fa i32) (local $fb i32) (local $window i32) (local $i i32) (local $o i32) (local $q i32)
    (local $scale v128) (local $pre v128) (local $sum v128) (local $v v128) (local $mean v128) (local $prev v128)
    (local $cur v128)
    (local.set $L (i32.load (i32.const 0)))
    (local.set $window (i32.load (i32.const 24)))
    (local.set $fa (i32.load (i32.const 56)))
    (local.set $fb (i32.load (i32.const 60)))
    (local.set $scale (v128.load32_splat (i32.const 80)))
    (local.set $pre (v128.load32_splat (i32.const 84)))
    (local.set $sum (v128.const f32x4 0 0 0 0))
    (local.set $i (i32.const 0))
    (block $done (loop $samples
      (br_if $done (i32.ge_u (local.get $i) (local.get $L)))
      (local.set $o (i32.shl (local.get $i) (i32.const 2)))
      (local.set $v
        (v128.load32_lane 3 (i32.add (local.get $w3) (local.get $o))
          (v128.load32_lane 2 (i32.add (local.get $w2) (local.get $o))
            (v128.load32_lane 1 (i32.add (local.get $w1) (local.get $o))
              (v128.load32_zero (i32.add (local.get $w0) (local.get $o)))))))
      (local.set $v (f32x4.mul (local.get $v) (local.get $scale)))
      (v128.store (i32.add (local.get $fa) (i32.shl (local.get $i) (i32.const 4))) (local.get $v))
      (local.set $sum (f32x4.add (local.get $sum) (local.get $v)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $samples)))
    (local.set $mean (f32x4.div (local.get $sum) (f32x4.splat (f32.convert_i32_u (local.get $L)))))
    (local.set $prev (f32x4.sub (v128.load (local.get $fa)) (local.get $mean)))
    ;; descending: sample i's f64x2 pair A goes where its f32x4 waited (byte 16·i of A), after reading samples i and
    ;; i − 1, so sample i − 1 is still there for the next step
    (local.set $i (local.get $L))
    (block $done (loop $samples
      (br_if $done (i32.eqz (local.get $i)))
      (local.set $i (i32.sub (local.get $i) (i32.const 1)))
      (local.set $q (i32.add (local.get $fa) (i32.shl (local.get $i) (i32.const 4))))
      (local.set $cur (f32x4.sub (v128.load (local.get $q)) (local.get $mean)))
      (if (i32.eqz (local.get $i))
        (then (local.set $v (local.get $cur)))
        (else (local.set $v (f32x4.sub (v128.load offset=0 (i32.sub (local.get $q) (i32.const 16))) (local.get $mean)))))
      (local.set $v (f32x4.mul (f32x4.sub (local.get $cur) (f32x4.mul (local.get $pre) (local.get $v)))
        (v128.load32_splat (i32.add (local.get $window) (i32.shl (local.get $i) (i32.const 2))))))
      (v128.store (i32.add (local.get $fb) (i32.shl (local.get $i) (i32.const 4)))
        (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v))))
      (v128.store (i32.add (local.get $fa) (i32.shl (local.get $i) (i32.const 4))) (f64x2.promote_low_f32x4 (local.get $v)))
      (br $samples))))

  ;; First FFT stage out of place, frame → buf, inputs through the bit-reversal table: 4-point DFTs (radix 4) or
  ;; 2-point DFTs (radix 2); forward transform (the ∓i of the radix-4 butterfly is −i).
  (func $first_stage (param $frame i32) (param $buf i32)
    (local $half i32) (local $radix i32) (local $rev i32) (local $g i32) (local $a i32)
    (local $i0 i32) (local $i1 i32) (local $i2 i32) (local $i3 i32)
    (local $x0r v128) (local $x0i v128) (local $x1r v128) (local $x1i v128) (local $x2r v128) (local $x2i v128)
    (local $x3r v128) (local $x3i v128) (local $sr v128) (local $si v128) (local $dr v128) (local $di v128)
    (local $ur v128) (local $ui v128) (local $vr v128) (local $vi v128)
    (local.set $half (i32.load (i32.const 8)))
    (local.set $radix (i32.load (i32.const 12)))
    (local.set $rev (i32.load (i32.const 28)))
    (local.set $g (i32.const 0))
    (if (i32.eq (local.get $radix) (i32.const 4))
      (then
        (block $done (loop $groups
          (br_if $done (i32.ge_u (local.get $g) (local.get $half)))
          ;; complex m of the frame is slots 2m, 2m + 1: byte frame + 32·m
          (local.set $i0 (i32.add (local.get $frame) (i32.shl (i32.load (i32.add (local.get $rev) (i32.shl (local.get $g) (i32.const 2)))) (i32.const 5))))
          (local.set $i1 (i32.add (local.get $frame) (i32.shl (i32.load offset=4 (i32.add (local.get $rev) (i32.shl (local.get $g) (i32.const 2)))) (i32.const 5))))
          (local.set $i2 (i32.add (local.get $frame) (i32.shl (i32.load offset=8 (i32.add (local.get $rev) (i32.shl (local.get $g) (i32.const 2)))) (i32.const 5))))
          (local.set $i3 (i32.add (local.get $frame) (i32.shl (i32.load offset=12 (i32.add (local.get $rev) (i32.shl (local.get $g) (i32.const 2)))) (i32.const 5))))
          (local.set $x0r (v128.load (local.get $i0))) (local.set $x0i (v128.load offset=16 (local.get $i0)))
          (local.set $x1r (v128.load (local.get $i1))) (local.set $x1i (v128.load offset=16 (local.get $i1)))
          (local.set $x2r (v128.load (local.get $i2))) (local.set $x2i (v128.load offset=16 (local.get $i2)))
          (local.set $x3r (v128.load (local.get $i3))) (local.set $x3i (v128.load offset=16 (local.get $i3)))
          (local.set $sr (f64x2.add (local.get $x0r) (local.get $x1r)))
          (local.set $si (f64x2.add (local.get $x0i) (local.get $x1i)))
          (local.set $dr (f64x2.sub (local.get $x0r) (local.get $x1r)))
          (local.set $di (f64x2.sub (local.get $x0i) (local.get $x1i)))
          (local.set $ur (f64x2.add (local.get $x2r) (local.get $x3r)))
          (local.set $ui (f64x2.add (local.get $x2i) (local.get $x3i)))
          (local.set $vr (f64x2.sub (local.get $x2i) (local.get $x3i)))
          (local.set $vi (f64x2.sub (local.get $x3r) (local.get $x2r)))
          (local.set $a (i32.add (local.get $buf) (i32.shl (local.get $g) (i32.const 5))))
          (v128.store (local.get $a) (f64x2.add (local.get $sr) (local.get $ur)))
          (v128.store offset=16 (local.get $a) (f64x2.add (local.get $si) (local.get $ui)))
          (v128.store offset=32 (local.get $a) (f64x2.add (local.get $dr) (local.get $vr)))
          (v128.store offset=48 (local.get $a) (f64x2.add (local.get $di) (local.get $vi)))
          (v128.store offset=64 (local.get $a) (f64x2.sub (local.get $sr) (local.get $ur)))
          (v128.store offset=80 (local.get $a) (f64x2.sub (local.get $si) (local.get $ui)))
          (v128.store offset=96 (local.get $a) (f64x2.sub (local.get $dr) (local.get $vr)))
          (v128.store offset=112 (local.get $a) (f64x2.sub (local.get $di) (local.get $vi)))
          (local.set $g (i32.add (local.get $g) (i32.const 4)))
          (br $groups))))
      (else (if (i32.eq (local.get $radix) (i32.const 2))
        (then
          (block $done (loop $groups
            (br_if $done (i32.ge_u (local.get $g) (local.get $half)))
            (local.set $i0 (i32.add (local.get $frame) (i32.shl (i32.load (i32.add (local.get $rev) (i32.shl (local.get $g) (i32.const 2)))) (i32.const 5))))
            (local.set $i1 (i32.add (local.get $frame) (i32.shl (i32.load offset=4 (i32.add (local.get $rev) (i32.shl (local.get $g) (i32.const 2)))) (i32.const 5))))
            (local.set $x0r (v128.load (local.get $i0))) (local.set $x0i (v128.load offset=16 (local.get $i0)))
            (local.set $x1r (v128.load (local.get $i1))) (local.set $x1i (v128.load offset=16 (local.get $i1)))
            (local.set $a (i32.add (local.get $buf) (i32.shl (local.get $g) (i32.const 5))))
            (v128.store (local.get $a) (f64x2.add (local.get $x0r) (local.get $x1r)))
            (v128.store offset=16 (local.get $a) (f64x2.add (local.get $x0i) (local.get $x1i)))
            (v128.store offset=32 (local.get $a) (f64x2.sub (local.get $x0r) (local.get $x1r)))
            (v128.store offset=48 (local.get $a) (f64x2.sub (local.get $x0i) (local.get $x1i)))
            (local.set $g (i32.add (local.get $g) (i32.const 2)))
            (br $groups))))
        (else ;; half = 1: a copy
          (v128.store (local.get $buf) (v128.load (local.get $frame)))
          (v128.store offset=16 (local.get $buf) (v128.load offset=16 (local.get $frame))))))))

  ;; The radix-4 stages in place on buf: quarter-span q = first_radix, 4·first_radix, … while 4q ≤ half; twiddles
  ;; w1, w2, w3 (re, im) per k read in loop order. Butterfly (fft-radix.ts radixFourStage, forward):
  ;; t1 = w2·x1, t2 = w1·x2, t3 = w3·x3; X0 = (x0 + t1) + (t2 + t3), X2 = (x0 + t1) − (t2 + t3),
  ;; X1 = (x0 − t1) − i(t2 − t3), X3 = (x0 − t1) + i(t2 − t3).
  (func $radix4_stages (param $buf i32)
    (local $half i32) (local $q i32) (local $tw i32) (local $end i32) (local $k i32) (local $a0 i32)
    (local $h2 i32) (local $span i32)
    (local $w1r v128) (local $w1i v128) (local $w2r v128) (local $w2i v128) (local $w3r v128) (local $w3i v128)
    (local $x0r v128) (local $x0i v128) (local $x1r v128) (local $x1i v128) (local $x2r v128) (local $x2i v128)
    (local $x3r v128) (local $x3i v128) (local $t1r v128) (local $t1i v128) (local $t2r v128) (local $t2i v128)
    (local $t3r v128) (local $t3i v128) (local $sr v128) (local $si v128) (local $dr v128) (local $di v128)
    (local $ur v128) (local $ui v128) (local $vr v128) (local $vi v128)
    (local.set $half (i32.load (i32.const 8)))
    (local.set $q (i32.load (i32.const 12)))
    (local.set $tw (i32.load (i32.const 32)))
    (local.set $end (i32.add (local.get $buf) (i32.shl (local.get $half) (i32.const 5))))
    (block $stages_done (loop $stages
      (br_if $stages_done (i32.gt_u (i32.shl (local.get $q) (i32.const 2)) (local.get $half)))
      (local.set $h2 (i32.shl (local.get $q) (i32.const 5)))   ;; 2q slots of 16 bytes
      (local.set $span (i32.shl (local.get $q) (i32.const 7))) ;; 8q slots
      (local.set $k (i32.const 0))
      (block $k_done (loop $ks
        (br_if $k_done (i32.ge_u (local.get $k) (local.get $q)))
        (local.set $w1r (v128.load64_splat (local.get $tw)))
        (local.set $w1i (v128.load64_splat offset=8 (local.get $tw)))
        (local.set $w2r (v128.load64_splat offset=16 (local.get $tw)))
        (local.set $w2i (v128.load64_splat offset=24 (local.get $tw)))
        (local.set $w3r (v128.load64_splat offset=32 (local.get $tw)))
        (local.set $w3i (v128.load64_splat offset=40 (local.get $tw)))
        (local.set $tw (i32.add (local.get $tw) (i32.const 48)))
        (local.set $a0 (i32.add (local.get $buf) (i32.shl (local.get $k) (i32.const 5))))
        (block $a_done (loop $as
          (br_if $a_done (i32.ge_u (local.get $a0) (local.get $end)))
          (local.set $x1r (v128.load (i32.add (local.get $a0) (local.get $h2))))
          (local.set $x1i (v128.load offset=16 (i32.add (local.get $a0) (local.get $h2))))
          (local.set $x2r (v128.load (i32.add (local.get $a0) (i32.shl (local.get $h2) (i32.const 1)))))
          (local.set $x2i (v128.load offset=16 (i32.add (local.get $a0) (i32.shl (local.get $h2) (i32.const 1)))))
          (local.set $x3r (v128.load (i32.add (local.get $a0) (i32.mul (local.get $h2) (i32.const 3)))))
          (local.set $x3i (v128.load offset=16 (i32.add (local.get $a0) (i32.mul (local.get $h2) (i32.const 3)))))
          (local.set $t1r (f64x2.sub (f64x2.mul (local.get $x1r) (local.get $w2r)) (f64x2.mul (local.get $x1i) (local.get $w2i))))
          (local.set $t1i (f64x2.add (f64x2.mul (local.get $x1r) (local.get $w2i)) (f64x2.mul (local.get $x1i) (local.get $w2r))))
          (local.set $t2r (f64x2.sub (f64x2.mul (local.get $x2r) (local.get $w1r)) (f64x2.mul (local.get $x2i) (local.get $w1i))))
          (local.set $t2i (f64x2.add (f64x2.mul (local.get $x2r) (local.get $w1i)) (f64x2.mul (local.get $x2i) (local.get $w1r))))
          (local.set $t3r (f64x2.sub (f64x2.mul (local.get $x3r) (local.get $w3r)) (f64x2.mul (local.get $x3i) (local.get $w3i))))
          (local.set $t3i (f64x2.add (f64x2.mul (local.get $x3r) (local.get $w3i)) (f64x2.mul (local.get $x3i) (local.get $w3r))))
          (local.set $x0r (v128.load (local.get $a0)))
          (local.set $x0i (v128.load offset=16 (local.get $a0)))
          (local.set $sr (f64x2.add (local.get $x0r) (local.get $t1r)))
          (local.set $si (f64x2.add (local.get $x0i) (local.get $t1i)))
          (local.set $dr (f64x2.sub (local.get $x0r) (local.get $t1r)))
          (local.set $di (f64x2.sub (local.get $x0i) (local.get $t1i)))
          (local.set $ur (f64x2.add (local.get $t2r) (local.get $t3r)))
          (local.set $ui (f64x2.add (local.get $t2i) (local.get $t3i)))
          (local.set $vr (f64x2.sub (local.get $t2i) (local.get $t3i)))
          (local.set $vi (f64x2.sub (local.get $t3r) (local.get $t2r)))
          (v128.store (local.get $a0) (f64x2.add (local.get $sr) (local.get $ur)))
          (v128.store offset=16 (local.get $a0) (f64x2.add (local.get $si) (local.get $ui)))
          (v128.store (i32.add (local.get $a0) (i32.shl (local.get $h2) (i32.const 1))) (f64x2.sub (local.get $sr) (local.get $ur)))
          (v128.store offset=16 (i32.add (local.get $a0) (i32.shl (local.get $h2) (i32.const 1))) (f64x2.sub (local.get $si) (local.get $ui)))
          (v128.store (i32.add (local.get $a0) (local.get $h2)) (f64x2.add (local.get $dr) (local.get $vr)))
          (v128.store offset=16 (i32.add (local.get $a0) (local.get $h2)) (f64x2.add (local.get $di) (local.get $vi)))
          (v128.store (i32.add (local.get $a0) (i32.mul (local.get $h2) (i32.const 3))) (f64x2.sub (local.get $dr) (local.get $vr)))
          (v128.store offset=16 (i32.add (local.get $a0) (i32.mul (local.get $h2) (i32.const 3))) (f64x2.sub (local.get $di) (local.get $vi)))
          (local.set $a0 (i32.add (local.get $a0) (local.get $span)))
          (br $as)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $ks)))
      (local.set $q (i32.shl (local.get $q) (i32.const 2)))
      (br $stages))))

  ;; fl32(re)² + fl32(im)² in float32 (knf's power of its float spectrum): lanes 0, 1 of the result from the f64x2 pair
  (func $power (param $re v128) (param $im v128) (result v128)
    (local.set $re (f32x4.demote_f64x2_zero (local.get $re)))
    (local.set $im (f32x4.demote_f64x2_zero (local.get $im)))
    (f32x4.add (f32x4.mul (local.get $re) (local.get $re)) (f32x4.mul (local.get $im) (local.get $im))))

  ;; Split step of the real FFT (fft.ts RealFft.split) fused with the power: power[k] for k < half, into bytes
  ;; $lane .. $lane + 8 of each f32x4 (0: pair A, 8: pair B). Bins k and j = half − k come from Z_k, Z_j:
  ;; E = (Z_k + Z*_j)/2, O = (Z_k − Z*_j)/(2i), X_k = E + W^k·O, X_j = (E − W^k·O)*.
  (func $split_power (param $buf i32) (param $lane i32)
    (local $half i32) (local $pow i32) (local $cos i32) (local $sin i32) (local $k i32) (local $j i32)
    (local $zr v128) (local $zi v128) (local $yr v128) (local $yi v128) (local $er v128) (local $ei v128)
    (local $or v128) (local $oi v128) (local $wr v128) (local $wi v128) (local $pr v128) (local $pi v128) (local $h v128)
    (local.set $half (i32.load (i32.const 8)))
    (local.set $cos (i32.load (i32.const 36)))
    (local.set $sin (i32.load (i32.const 40)))
    (local.set $pow (i32.add (i32.load (i32.const 72)) (local.get $lane)))
    (local.set $h (f64x2.splat (f64.const 0.5)))
    ;; X_0 = Z_0.re + Z_0.im, imaginary 0
    (v128.store64_lane 0 (local.get $pow) (call $power
      (f64x2.add (v128.load (local.get $buf)) (v128.load offset=16 (local.get $buf))) (v128.const f64x2 0 0)))
    (local.set $k (i32.const 1))
    (local.set $j (i32.sub (local.get $half) (i32.const 1)))
    (block $done (loop $bins
      (br_if $done (i32.gt_s (local.get $k) (local.get $j)))
      (local.set $zr (v128.load (i32.add (local.get $buf) (i32.shl (local.get $k) (i32.const 5)))))
      (local.set $zi (v128.load offset=16 (i32.add (local.get $buf) (i32.shl (local.get $k) (i32.const 5)))))
      (local.set $yr (v128.load (i32.add (local.get $buf) (i32.shl (local.get $j) (i32.const 5)))))
      (local.set $yi (v128.load offset=16 (i32.add (local.get $buf) (i32.shl (local.get $j) (i32.const 5)))))
      (local.set $er (f64x2.mul (local.get $h) (f64x2.add (local.get $zr) (local.get $yr))))
      (local.set $ei (f64x2.mul (local.get $h) (f64x2.sub (local.get $zi) (local.get $yi))))
      (local.set $or (f64x2.mul (local.get $h) (f64x2.add (local.get $zi) (local.get $yi))))
      (local.set $oi (f64x2.mul (local.get $h) (f64x2.sub (local.get $yr) (local.get $zr))))
      (local.set $wr (v128.load64_splat (i32.add (local.get $cos) (i32.shl (local.get $k) (i32.const 3)))))
      (local.set $wi (f64x2.neg (v128.load64_splat (i32.add (local.get $sin) (i32.shl (local.get $k) (i32.const 3))))))
      (local.set $pr (f64x2.sub (f64x2.mul (local.get $wr) (local.get $or)) (f64x2.mul (local.get $wi) (local.get $oi))))
      (local.set $pi (f64x2.add (f64x2.mul (local.get $wr) (local.get $oi)) (f64x2.mul (local.get $wi) (local.get $or))))
      ;; X_j first: for k = j (half/2) X_k wins, as in fft.ts
      (v128.store64_lane 0 (i32.add (local.get $pow) (i32.shl (local.get $j) (i32.const 4))) (call $power
        (f64x2.sub (local.get $er) (local.get $pr)) (f64x2.sub (local.get $pi) (local.get $ei))))
      (v128.store64_lane 0 (i32.add (local.get $pow) (i32.shl (local.get $k) (i32.const 4))) (call $power
        (f64x2.add (local.get $er) (local.get $pr)) (f64x2.add (local.get $ei) (local.get $pi))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (local.set $j (i32.sub (local.get $j) (i32.const 1)))
      (br $bins))))

  ;; Mel energies in float32 (mel-segments.ts: one ascending pass, two running sums) and ln(max(E, FLT_EPSILON)) of
  ;; the four frames, lane n into the float32 row at byte $out + n·$row
  (func $mel_log (param $out i32) (param $row i32)
    (local $bins i32) (local $i i32) (local $seg i32) (local $end i32) (local $segs i32) (local $pow i32)
    (local $cw i32) (local $nw i32) (local $p v128) (local $current v128) (local $next v128) (local $e v128)
    (local $floor v128) (local $at i32)
    (local.set $bins (i32.load (i32.const 16)))
    (local.set $i (i32.load (i32.const 20)))
    (local.set $segs (i32.load (i32.const 44)))
    (local.set $cw (i32.load (i32.const 48)))
    (local.set $nw (i32.load (i32.const 52)))
    (local.set $pow (i32.load (i32.const 72)))
    (local.set $floor (v128.load32_splat (i32.const 88)))
    (local.set $current (v128.const f32x4 0 0 0 0))
    (local.set $next (v128.const f32x4 0 0 0 0))
    (local.set $seg (i32.const 0))
    (block $segs_done (loop $segments
      (br_if $segs_done (i32.gt_u (local.get $seg) (local.get $bins)))
      (local.set $end (i32.load (i32.add (local.get $segs) (i32.shl (local.get $seg) (i32.const 2)))))
      (block $bins_done (loop $fft_bins
        (br_if $bins_done (i32.ge_s (local.get $i) (local.get $end)))
        (local.set $p (v128.load (i32.add (local.get $pow) (i32.shl (local.get $i) (i32.const 4)))))
        (local.set $current (f32x4.add (local.get $current)
          (f32x4.mul (v128.load32_splat (i32.add (local.get $cw) (i32.shl (local.get $i) (i32.const 2)))) (local.get $p))))
        (local.set $next (f32x4.add (local.get $next)
          (f32x4.mul (v128.load32_splat (i32.add (local.get $nw) (i32.shl (local.get $i) (i32.const 2)))) (local.get $p))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $fft_bins)))
      (if (i32.gt_u (local.get $seg) (i32.const 0))
        (then
          (local.set $e (f32x4.max (local.get $current) (local.get $floor)))
          (local.set $at (i32.add (local.get $out) (i32.shl (i32.sub (local.get $seg) (i32.const 1)) (i32.const 2))))
          (f32.store (local.get $at) (f32.demote_f64 (call $log (f64.promote_f32 (f32x4.extract_lane 0 (local.get $e))))))
          (local.set $at (i32.add (local.get $at) (local.get $row)))
          (f32.store (local.get $at) (f32.demote_f64 (call $log (f64.promote_f32 (f32x4.extract_lane 1 (local.get $e))))))
          (local.set $at (i32.add (local.get $at) (local.get $row)))
          (f32.store (local.get $at) (f32.demote_f64 (call $log (f64.promote_f32 (f32x4.extract_lane 2 (local.get $e))))))
          (local.set $at (i32.add (local.get $at) (local.get $row)))
          (f32.store (local.get $at) (f32.demote_f64 (call $log (f64.promote_f32 (f32x4.extract_lane 3 (local.get $e))))))))
      (local.set $current (local.get $next))
      (local.set $next (v128.const f32x4 0 0 0 0))
      (local.set $seg (i32.add (local.get $seg) (i32.const 1)))
      (br $segments))))

  ;; `frames` fbank rows of the float32 waveform at byte offset $wave (frame t starts at sample t·frame_shift) into
  ;; float32 rows of num_bins at byte offset $out. Frames go in fours; a last group of fewer repeats its last frame and
  ;; writes the copies into rows frames .. frames + 2, which the host allocates and ignores.
  (func (export "fbank") (param $wave i32) (param $out i32) (param $frames i32)
    (local $t i32) (local $shift4 i32) (local $row i32) (local $last i32)
    (local.set $shift4 (i32.shl (i32.load (i32.const 4)) (i32.const 2)))
    (local.set $row (i32.shl (i32.load (i32.const 16)) (i32.const 2)))
    (local.set $last (i32.sub (local.get $frames) (i32.const 1)))
    (local.set $t (i32.const 0))
    (block $done (loop $groups
      (br_if $done (i32.ge_u (local.get $t) (local.get $frames)))
      (call $window_quad
        (i32.add (local.get $wave) (i32.mul (local.get $t) (local.get $shift4)))
        (i32.add (local.get $wave) (i32.mul (call $min (i32.add (local.get $t) (i32.const 1)) (local.get $last)) (local.get $shift4)))
        (i32.add (local.get $wave) (i32.mul (call $min (i32.add (local.get $t) (i32.const 2)) (local.get $last)) (local.get $shift4)))
        (i32.add (local.get $wave) (i32.mul (call $min (i32.add (local.get $t) (i32.const 3)) (local.get $last)) (local.get $shift4))))
      (call $first_stage (i32.load (i32.const 56)) (i32.load (i32.const 64)))
      (call $radix4_stages (i32.load (i32.const 64)))
      (call $split_power (i32.load (i32.const 64)) (i32.const 0))
      (call $first_stage (i32.load (i32.const 60)) (i32.load (i32.const 68)))
      (call $radix4_stages (i32.load (i32.const 68)))
      (call $split_power (i32.load (i32.const 68)) (i32.const 8))
      (call $mel_log (i32.add (local.get $out) (i32.mul (local.get $t) (local.get $row))) (local.get $row))
      (local.set $t (i32.add (local.get $t) (i32.const 4)))
      (br $groups))))

  (func $min (param $a i32) (param $b i32) (result i32)
    (select (local.get $a) (local.get $b) (i32.lt_u (local.get $a) (local.get $b))))
)
