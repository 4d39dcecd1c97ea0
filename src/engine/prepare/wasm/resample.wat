;; torchaudio's sinc resampling (src/engine/prepare/resample-torchaudio.ts) in WebAssembly SIMD: the same float64
;; arithmetic as the TypeScript loop, in the same order, on TWO outputs at once: lane 0 is output (frame j, phase i),
;; lane 1 is output (frame j + 1, phase i). Both use the same taps; lane 1 reads the input `orig` samples later. Per
;; output the sum runs as in TypeScript: four products added left to right, that group added to the sum, then the
;; remaining products one by one; the sum is rounded to float32 once. IEEE arithmetic has one result per operation,
;; so every output is bit for bit the TypeScript one (test/prepare/resample-wasm.test.ts).
;;
;; Assembled by scripts/build-wasm.ts (wabt) into resample.wasm and resample-wasm-bytes.ts. The host
;; (resample-wasm.ts) lays out memory and passes byte offsets:
;;   taps f64[Σ phase lengths], start/length/offset i32[nw] (per phase: first tap, tap count, offset in the window),
;;   padded f64[n + 2·width + orig] (width zeros, the samples, width + orig zeros), out f32[pairs · 2 · nw].
(module
  (memory (export "memory") 1)

  ;; Frames 2p and 2p + 1 for p in [0, pairs): out[(2p)·nw + i] and out[(2p + 1)·nw + i] for every phase i.
  (func (export "resample_pairs")
    (param $taps i32) (param $start i32) (param $length i32) (param $offset i32) (param $nw i32) (param $orig i32)
    (param $padded i32) (param $out i32) (param $pairs i32)
    (local $p i32) (local $i i32) (local $k i32) (local $len i32) (local $t i32) (local $a i32) (local $b i32)
    (local $strideB i32) (local $frame0 i32) (local $o0 i32) (local $o1 i32)
    (local $sum v128) (local $group v128)
    ;; bytes between lane 0's and lane 1's input
    (local.set $strideB (i32.shl (local.get $orig) (i32.const 3)))
    (local.set $p (i32.const 0))
    (block $pairs_done (loop $pairs_loop
      (br_if $pairs_done (i32.ge_u (local.get $p) (local.get $pairs)))
      ;; input index of frame 2p's window start: 2p · orig
      (local.set $frame0 (i32.mul (i32.shl (local.get $p) (i32.const 1)) (local.get $orig)))
      (local.set $i (i32.const 0))
      (block $phases_done (loop $phases
        (br_if $phases_done (i32.ge_u (local.get $i) (local.get $nw)))
        (local.set $len (i32.load (i32.add (local.get $length) (i32.shl (local.get $i) (i32.const 2)))))
        ;; $t: byte address of the phase's first tap; $a: of lane 0's first input sample
        (local.set $t (i32.add (local.get $taps)
          (i32.shl (i32.load (i32.add (local.get $start) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 3))))
        (local.set $a (i32.add (local.get $padded) (i32.shl (i32.add (local.get $frame0)
          (i32.load (i32.add (local.get $offset) (i32.shl (local.get $i) (i32.const 2))))) (i32.const 3))))
        (local.set $b (i32.add (local.get $a) (local.get $strideB)))
        (local.set $sum (v128.const f64x2 0 0))
        (local.set $k (i32.const 0))
        ;; groups of four: sum += ((x0·t0 + x1·t1) + x2·t2) + x3·t3
        (block $quads_done (loop $quads
          (br_if $quads_done (i32.gt_s (i32.add (local.get $k) (i32.const 3)) (i32.sub (local.get $len) (i32.const 1))))
          (local.set $group
            (f64x2.add
              (f64x2.add
                (f64x2.add
                  (f64x2.mul (v128.load64_lane 1 (local.get $b) (v128.load64_splat (local.get $a))) (v128.load64_splat (local.get $t)))
                  (f64x2.mul (v128.load64_lane offset=8 1 (local.get $b) (v128.load64_splat offset=8 (local.get $a))) (v128.load64_splat offset=8 (local.get $t))))
                (f64x2.mul (v128.load64_lane offset=16 1 (local.get $b) (v128.load64_splat offset=16 (local.get $a))) (v128.load64_splat offset=16 (local.get $t))))
              (f64x2.mul (v128.load64_lane offset=24 1 (local.get $b) (v128.load64_splat offset=24 (local.get $a))) (v128.load64_splat offset=24 (local.get $t)))))
          (local.set $sum (f64x2.add (local.get $sum) (local.get $group)))
          (local.set $a (i32.add (local.get $a) (i32.const 32)))
          (local.set $b (i32.add (local.get $b) (i32.const 32)))
          (local.set $t (i32.add (local.get $t) (i32.const 32)))
          (local.set $k (i32.add (local.get $k) (i32.const 4)))
          (br $quads)))
        ;; the rest one by one: sum += x·t
        (block $rest_done (loop $rest
          (br_if $rest_done (i32.ge_s (local.get $k) (local.get $len)))
          (local.set $sum (f64x2.add (local.get $sum)
            (f64x2.mul (v128.load64_lane 1 (local.get $b) (v128.load64_splat (local.get $a))) (v128.load64_splat (local.get $t)))))
          (local.set $a (i32.add (local.get $a) (i32.const 8)))
          (local.set $b (i32.add (local.get $b) (i32.const 8)))
          (local.set $t (i32.add (local.get $t) (i32.const 8)))
          (local.set $k (i32.add (local.get $k) (i32.const 1)))
          (br $rest)))
        ;; out[2p·nw + i] and out[(2p + 1)·nw + i], each rounded to float32
        (local.set $o0 (i32.add (local.get $out) (i32.shl
          (i32.add (i32.mul (i32.shl (local.get $p) (i32.const 1)) (local.get $nw)) (local.get $i)) (i32.const 2))))
        (local.set $o1 (i32.add (local.get $o0) (i32.shl (local.get $nw) (i32.const 2))))
        (f32.store (local.get $o0) (f32.demote_f64 (f64x2.extract_lane 0 (local.get $sum))))
        (f32.store (local.get $o1) (f32.demote_f64 (f64x2.extract_lane 1 (local.get $sum))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $phases)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $pairs_loop)))
  )
)
