// Training dtype bfloat16: round each float32 to bf16 (nearest, ties to even, on the bits; NaN -> 0xFFFF as torch's
// vectorized CPU cast) and widen back to float32 bits, in place. Pure integer arithmetic: no float rounding involved.

override WORKGROUP_SIZE: u32 = 64u;

struct Bf16Params {
  count: u32,   // values to convert
}

@group(0) @binding(0) var<uniform> params: Bf16Params;
@group(0) @binding(1) var<storage, read_write> values: array<u32>; // float32 bits

@compute @workgroup_size(WORKGROUP_SIZE)
fn round_to_bf16(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let index = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
  if (index >= params.count) { return; }
  let bits = values[index];
  if ((bits & 0x7fffffffu) > 0x7f800000u) {
    values[index] = 0xffff0000u;
    return;
  }
  let rounding_bias = 0x7fffu + ((bits >> 16u) & 1u);
  values[index] = ((bits + rounding_bias) >> 16u) << 16u;
}
