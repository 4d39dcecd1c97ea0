"""FLAC streams that ordinary encoders do not write, for test/audio/flac.test.ts (run by make-audio-fixtures.sh).

Every bit depth FLAC allows (4-32, mono; 12/20/32-bit stereo, where a 32-bit side channel needs 33 bits), encoded by
`flac --lax` from WAVE_FORMAT_EXTENSIBLE files with that many valid bits; old-style variable block size as early
Flake wrote it (a fixed-blocking frame header whose number is a sample number, STREAMINFO min != max block size);
streams whose rate, channels or depth change mid-stream or contradict STREAMINFO; two files concatenated; junk and
tags around the frames. Frames are spliced from `flac` output, renumbered, and their CRC-8 and CRC-16 recomputed.
Usage: python3 scripts/make-flac-fixtures.py <speech-16k-mono-s16.wav> <speech-44k-stereo-s16.wav> <out dir>
"""
import struct, subprocess, sys, os, tempfile
import numpy as np, soundfile as sf

T16 = []
for i in range(256):
    c = i << 8
    for _ in range(8): c = ((c << 1) ^ 0x8005) & 0xffff if c & 0x8000 else (c << 1) & 0xffff
    T16.append(c)

def crc8(b):
    c = 0
    for x in b:
        c ^= x
        for _ in range(8): c = ((c << 1) ^ 0x07) & 0xff if c & 0x80 else (c << 1) & 0xff
    return c

def crc16(b):
    c = 0
    for x in b: c = ((c << 8) & 0xffff) ^ T16[(c >> 8) ^ x]
    return c

def utf8_len(lead):
    for n, mask, val in ((0, 0x80, 0), (1, 0xe0, 0xc0), (2, 0xf0, 0xe0), (3, 0xf8, 0xf0), (4, 0xfc, 0xf8), (5, 0xfe, 0xfc)):
        if lead & mask == val: return n
    return 6 if lead == 0xfe else -1

def header_len(b, at):
    if at + 6 > len(b) or b[at] != 0xff or (b[at + 1] & 0xfe) != 0xf8: return 0
    bc, rc = b[at + 2] >> 4, b[at + 2] & 15
    n = utf8_len(b[at + 4])
    if n < 0 or bc == 0 or rc == 15: return 0
    p = at + 5 + n + (1 if bc == 6 else 2 if bc == 7 else 0) + (1 if rc == 12 else 2 if rc in (13, 14) else 0)
    return p + 1 - at if p < len(b) and crc8(b[at:p]) == b[p] else 0

def parse(path):
    """STREAMINFO body and the frames of a native FLAC file written by `flac` (no junk, no damage)."""
    b = open(path, 'rb').read()
    at, last, info = 4, False, None
    while not last:
        last = b[at] & 0x80
        n = int.from_bytes(b[at + 1:at + 4], 'big')
        if b[at] & 0x7f == 0: info = b[at + 4:at + 4 + n]
        at += 4 + n
    starts = [i for i in range(at, len(b)) if b[i] == 0xff and header_len(b, i)]
    frames, s = [], starts[0]
    for i in starts[1:]:
        if crc16(b[s:i]) == 0: frames.append(b[s:i]); s = i
    frames.append(b[s:])
    assert all(crc16(f) == 0 for f in frames)
    return info, frames

def utf8(v):
    if v < 0x80: return bytes([v])
    for n, lead in ((1, 0xc0), (2, 0xe0), (3, 0xf0), (4, 0xf8), (5, 0xfc), (6, 0xfe)):
        if v < 1 << (5 * n + 6 if n < 6 else 36):
            out = [0xfe] if n == 6 else [lead | (v >> (6 * n))]
            return bytes(out + [0x80 | ((v >> (6 * k)) & 0x3f) for k in range(n - 1, -1, -1)])
    raise ValueError(v)

def renumber(frame, number, variable):
    """The frame with its coded number and blocking strategy bit replaced, CRC-8 and CRC-16 recomputed."""
    h = header_len(frame, 0)
    n = utf8_len(frame[4])
    head = bytes([0xff, 0xf8 | variable, frame[2], frame[3]]) + utf8(number) + frame[5 + n:h - 1]
    body = head + bytes([crc8(head)]) + frame[h:-2]
    return body + crc16(body).to_bytes(2, 'big')

def streaminfo(minb, maxb, rate, ch, bps, total):
    v = (rate << 44) | ((ch - 1) << 41) | ((bps - 1) << 36) | total
    return struct.pack('>HH', minb, maxb) + b'\0' * 6 + v.to_bytes(8, 'big') + b'\0' * 16

def patch_info(info, **kw):
    v = int.from_bytes(info[10:18], 'big')
    rate, ch, bps, total = v >> 44, ((v >> 41) & 7) + 1, ((v >> 36) & 31) + 1, v & ((1 << 36) - 1)
    v = (kw.get('rate', rate) << 44) | ((kw.get('ch', ch) - 1) << 41) | ((kw.get('bps', bps) - 1) << 36) | kw.get('total', total)
    return info[:10] + v.to_bytes(8, 'big') + info[18:]

def write(path, info, frames, before=b'', after=b''):
    open(path, 'wb').write(b'fLaC\x80' + (34).to_bytes(3, 'big') + info + before + b''.join(frames) + after)

def wav_ext(path, v, bps, rate):
    """WAVE_FORMAT_EXTENSIBLE with `bps` valid bits, left-justified in whole bytes (how flac reads such depths)."""
    v = np.atleast_2d(v.T).T
    frames, ch = v.shape
    nb = (bps + 7) // 8
    w = (v.astype(np.int64) << (8 * nb - bps)).reshape(-1)
    pcm = bytes(((w + 128) & 0xff).astype(np.uint8)) if nb == 1 else b''.join(int(s).to_bytes(nb, 'little', signed=True) for s in w)
    guid = bytes.fromhex('0100000000001000800000aa00389b71')
    fmt = struct.pack('<HHIIHHHHI', 0xFFFE, ch, rate, rate * ch * nb, ch * nb, 8 * nb, 22, bps, 4 if ch == 1 else 3) + guid
    body = b'WAVE' + b'fmt ' + struct.pack('<I', len(fmt)) + fmt + b'data' + struct.pack('<I', len(pcm)) + pcm
    open(path, 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)

def at_depth(x, bps, seed):
    """16-bit samples brought to `bps` bits: shifted down, or up with deterministic noise in the new low bits."""
    x = x.astype(np.int64)
    if bps <= 16: return x >> (16 - bps)
    low = np.random.default_rng(seed).integers(0, 1 << (bps - 16), size=x.shape)
    return np.clip((x << (bps - 16)) + low, -(1 << (bps - 1)), (1 << (bps - 1)) - 1)

def main():
    mono_wav, stereo_wav, out = sys.argv[1:4]
    tmp = tempfile.mkdtemp()
    t = lambda name: os.path.join(tmp, name)
    o = lambda name: os.path.join(out, name)
    def flac(src, dst, *args):
        subprocess.run(['flac', '--silent', '--force', '--lax', '--no-padding', *args, '-o', dst, src], check=True)
    mono, _ = sf.read(mono_wav, dtype='int16')
    stereo, _ = sf.read(stereo_wav, dtype='int16')
    short = mono[:8000]
    # --- every depth, mono 16 kHz 0.5 s; stereo 44.1 kHz 0.25 s at 12, 20 and 32 bits (mid/side chosen by -8)
    for bps in range(4, 33):
        wav_ext(t('d.wav'), at_depth(short, bps, bps), bps, 16000)
        flac(t('d.wav'), o(f'depth-{bps:02d}.flac'), '-8')
    for bps in (12, 20, 32):
        wav_ext(t('s.wav'), at_depth(stereo[:11025], bps, 100 + bps), bps, 44100)
        flac(t('s.wav'), o(f'stereo-44k-{bps}.flac'), '-8')
    # 24-bit with every LPC order up to 32, exhaustive model and precision search, Rice partition order up to 15
    wav_ext(t('l.wav'), at_depth(short, 24, 7), 24, 16000)
    flac(t('l.wav'), o('lpc32-24.flac'), '-l', '32', '-e', '-p', '-r', '15', '-b', '4096')
    # --- old-style variable block size (Flake): one frame per segment, numbered by first sample, fixed-blocking bit
    sizes, segs, at, k = [4096, 1152, 2304, 4608, 576], [], 0, 0
    while at < len(mono):
        n = sizes[k % len(sizes)]; k += 1
        segs.append((at, mono[at:at + n])); at += n
    if len(segs[-1][1]) < 16:
        (_, tail), (po, ps) = segs.pop(), segs.pop()
        segs.append((po, np.concatenate([ps, tail])))
    old, new = [], []
    for off, seg in segs:
        sf.write(t('seg.wav'), seg, 16000, subtype='PCM_16')
        flac(t('seg.wav'), t('seg.flac'), '--blocksize=%d' % len(seg))
        _, fr = parse(t('seg.flac'))
        assert len(fr) == 1
        old.append(renumber(fr[0], off, 0))
        new.append(renumber(fr[0], off, 1))
    info = streaminfo(min(len(s) for _, s in segs), max(len(s) for _, s in segs), 16000, 1, 16, len(mono))
    write(o('varblock-old.flac'), info, old)
    write(o('varblock-new.flac'), info, new)
    # old-style variable blocking where the WASM libFLAC build (fed frames without STREAMINFO) reads each sample number
    # as a frame number and "pads" up to 50 blocks of silence per frame, leaking it: 8 channels of digital silence at
    # 96 kHz, 576 then 4608 samples per frame, 320 frames (29 s)
    frames, at = [], 0
    for k in range(320):
        n = 576 if k == 0 else 4608
        code = 2 if n == 576 else 5
        head = bytes([0xff, 0xf8, (code << 4) | 11, (7 << 4) | (4 << 1)]) + utf8(at)
        head += bytes([crc8(head)])
        body = head + bytes([0x00, 0x00, 0x00]) * 8  # constant subframes of value 0 (16 bits each)
        frames.append(body + crc16(body).to_bytes(2, 'big'))
        at += n
    write(o('varblock-old-silence-8ch.flac'), streaminfo(576, 4608, 96000, 8, 16, at), frames)
    # --- format changes mid-stream, STREAMINFO contradicting the frames
    def enc(data, rate, subtype, name):
        sf.write(t(name + '.wav'), data, rate, subtype=subtype)
        flac(t(name + '.wav'), t(name + '.flac'), '--blocksize=4096')
        return parse(t(name + '.flac'))
    i16, f16 = enc(mono, 16000, 'PCM_16', 'a16')
    _, f24 = enc(mono.astype(np.int32) << 16, 16000, 'PCM_24', 'a24')
    _, f22 = enc(mono, 22050, 'PCM_16', 'a22')
    i2, f2 = enc(np.stack([mono, mono // 2], axis=1), 16000, 'PCM_16', 'a2')
    half = len(f16) // 2
    for name, second in (('change-bps', f24), ('change-rate', f22), ('change-channels', f2)):
        write(o(name + '.flac'), i16, [renumber(f, i, 0) for i, f in enumerate(f16[:half] + second[half:])])
    write(o('streaminfo-bps24.flac'), patch_info(i16, bps=24), f16)
    write(o('streaminfo-rate22050.flac'), patch_info(i16, rate=22050), f16)
    write(o('streaminfo-ch2.flac'), patch_info(i16, ch=2), f16)
    write(o('streaminfo-ch1-stereo.flac'), patch_info(i2, ch=1), f2)
    # --- junk and tags: two files concatenated (libsndfile reads the first stream's declared samples only), an ID3v1
    # tag after the last frame, junk before the first frame, junk between frames, STREAMINFO total 0 (unknown)
    whole = open(t('a16.flac'), 'rb').read()
    open(o('concat.flac'), 'wb').write(whole + whole)
    open(o('concat-rate.flac'), 'wb').write(whole + open(t('a22.flac'), 'rb').read())
    write(o('id3v1-tag.flac'), i16, f16, after=b'TAG' + b'mixscope'.ljust(125, b'\0'))
    write(o('junk-before-frames.flac'), i16, f16, before=b'\0' * 100)
    write(o('junk-between-frames.flac'), i16, f16[:3] + [b'\0' * 100] + f16[3:])
    write(o('total-unknown.flac'), patch_info(i16, total=0), f16)

main()
