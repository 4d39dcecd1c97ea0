#!/bin/sh
# Regenerates test/fixtures/audio: real speech (espeak-ng) encoded by the standard command-line encoders, plus
# reference decodes made by libsndfile itself (the decoder the training reference uses, via Python ctypes) as raw
# float32 little-endian interleaved `.f32` files, and an index `fixtures.json`.
#
# Then the odd FLAC streams of test/fixtures/audio/flac (every bit depth 4-32, old-style variable block size, format
# changes, junk; scripts/make-flac-fixtures.py), whose references test/audio/flac.test.ts makes live with flac -d.
#
# Run by hand (outputs are committed); needs espeak-ng sox flac vorbis-tools opus-tools lame ffmpeg python3 with numpy
# and soundfile (Debian python3-numpy python3-soundfile) and libsndfile.so.1. Usage: sh scripts/make-audio-fixtures.sh
set -eu
cd "$(dirname "$0")/.."
OUT=test/fixtures/audio
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
rm -f "$OUT"/*.oga "$OUT"/*.wav "$OUT"/*.flac "$OUT"/*.ogg "$OUT"/*.opus "$OUT"/*.mp3 "$OUT"/*.f32 "$OUT"/fixtures.json

# --- sources: speech at espeak's 22.05 kHz, then the reference PCM files
espeak-ng -v en-us -s 170 -w "$TMP/a.wav" "Mixscope decodes speech."
espeak-ng -v en-gb -s 190 -w "$TMP/b.wav" "Stereo check."
# 16 kHz mono 16-bit: what the dataprep writes (no dither so reruns give the same bytes)
sox -D "$TMP/a.wav" -r 16000 -b 16 -c 1 "$OUT/speech-16k-mono-s16.wav"
# 44.1 kHz stereo 16-bit: left = speech, right = the same delayed 7 ms at -6 dB, so the channels differ
sox -D "$TMP/b.wav" -r 44100 -b 16 "$TMP/l.wav"
sox -D "$TMP/l.wav" "$TMP/r.wav" delay 0.007 gain -6 trim 0 "$(soxi -D "$TMP/l.wav")"
sox -D -M "$TMP/l.wav" "$TMP/r.wav" -b 16 "$OUT/speech-44k-stereo-s16.wav" trim 0 0.5

# --- lossless variants of the 16 kHz mono PCM
S16="$OUT/speech-16k-mono-s16.wav"
flac --silent -8 -o "$OUT/speech-16k-mono-s16.flac" "$S16"
flac --silent -8 -o "$OUT/speech-44k-stereo-s16.flac" "$OUT/speech-44k-stereo-s16.wav"
# FLAC in Ogg: libsndfile 1.2.0 cannot decode it (so the training reference fails on it); reference by ffmpeg
flac --silent -8 --ogg --serial-number=1 -o "$OUT/speech-16k-mono-s16.oga" "$S16"
# sample-format variants from the first 0.5 s only (small files)
sox -D "$S16" "$TMP/short.wav" trim 0 0.5
sox -D "$TMP/short.wav" -b 24 "$OUT/short-16k-mono-s24.wav"
sox -D "$TMP/short.wav" -b 24 "$OUT/short-16k-mono-s24.flac"
sox -D "$TMP/short.wav" -b 32 -e signed-integer "$OUT/short-16k-mono-s32.wav"
sox -D "$TMP/short.wav" -b 8 -e unsigned-integer "$OUT/short-16k-mono-u8.wav"
sox -D "$TMP/short.wav" -b 32 -e floating-point "$OUT/short-16k-mono-f32.wav"
sox -D "$TMP/short.wav" -b 64 -e floating-point "$OUT/short-16k-mono-f64.wav"

# WAVE_FORMAT_EXTENSIBLE 16-bit stereo with fact, LIST and an odd-sized chunk (padded to even) before data
python3 - "$OUT/speech-44k-stereo-s16.wav" "$OUT/speech-44k-stereo-s16-extensible.wav" <<'EOF'
import struct, sys
src = open(sys.argv[1], 'rb').read()
i = src.index(b'data'); n = struct.unpack('<I', src[i+4:i+8])[0]; pcm = src[i+8:i+8+n]
ch, rate, bits = 2, 44100, 16
guid_pcm = bytes.fromhex('0100000000001000800000aa00389b71')
fmt = struct.pack('<HHIIHHHHI', 0xFFFE, ch, rate, rate*ch*bits//8, ch*bits//8, bits, 22, bits, 3) + guid_pcm
def chunk(cid, body): return cid + struct.pack('<I', len(body)) + body + (b'\0' if len(body) & 1 else b'')
body = b'WAVE' + chunk(b'fmt ', fmt) + chunk(b'fact', struct.pack('<I', n // 4)) \
  + chunk(b'LIST', b'INFOISFT' + struct.pack('<I', 9) + b'mixscope\0' + b'\0') + chunk(b'junk', b'odd') + chunk(b'data', pcm)
open(sys.argv[2], 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)
EOF

# --- lossy encodings (what the dataprep's default "ogg" writes, plus Opus and MP3)
for base in speech-16k-mono speech-44k-stereo; do
  oggenc -Q -q 4 -s 1 -o "$OUT/$base.ogg" "$OUT/$base-s16.wav"
  opusenc --quiet --bitrate 32 --serial 1 --comp 10 "$OUT/$base-s16.wav" "$OUT/$base.opus"
  # --resample keeps lame from lowering the rate
  lame --quiet -b 96 --resample "$(soxi -r "$OUT/$base-s16.wav" | sed 's/000$//; s/100$/.1/')" "$OUT/$base-s16.wav" "$OUT/$base.mp3"
done

# --- reference decodes with libsndfile (sf_readf_float: integer PCM / 2^(bits-1), Opus at its input rate)
python3 - "$OUT" <<'EOF'
import ctypes, hashlib, json, os, subprocess, sys
out = sys.argv[1]
lib = ctypes.CDLL('libsndfile.so.1')
lib.sf_version_string.restype = ctypes.c_char_p
class SF_INFO(ctypes.Structure):
  _fields_ = [('frames', ctypes.c_int64), ('samplerate', ctypes.c_int), ('channels', ctypes.c_int),
              ('format', ctypes.c_int), ('sections', ctypes.c_int), ('seekable', ctypes.c_int)]
lib.sf_open.restype = ctypes.c_void_p
lib.sf_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(SF_INFO)]
lib.sf_readf_float.restype = ctypes.c_int64
lib.sf_readf_float.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.c_int64]
lib.sf_close.argtypes = [ctypes.c_void_p]
kinds = {'.oga': ('ogg', 'flac'), '.wav': ('wav', None), '.flac': ('flac', 'flac'), '.ogg': ('ogg', 'vorbis'), '.opus': ('ogg', 'opus'), '.mp3': ('mp3', 'mp3')}
index = []
refs = {}
for name in sorted(os.listdir(out)):
  stem, ext = os.path.splitext(name)
  if ext not in kinds: continue
  info = SF_INFO()
  path = os.path.join(out, name)
  f = lib.sf_open(path.encode(), 0x10, ctypes.byref(info))
  tool = 'libsndfile'
  if f:
    buf = (ctypes.c_float * (info.frames * info.channels + 1))()
    got = lib.sf_readf_float(f, buf, info.frames)
    lib.sf_close(f)
    data = bytes(buf)[:got * info.channels * 4]
  elif ext == '.oga':
    # libsndfile cannot decode FLAC in Ogg: reference by ffmpeg (integer / 2^(bits-1) as well)
    tool = 'ffmpeg'
    probe = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=sample_rate,channels', '-of', 'csv=p=0', path], capture_output=True, text=True, check=True).stdout.strip().split(',')
    info.samplerate, info.channels = int(probe[0]), int(probe[1])
    data = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-f', 'f32le', '-'], capture_output=True, check=True).stdout
    got = len(data) // 4 // info.channels
  else:
    raise SystemExit(f'libsndfile cannot open {name}')
  # identical decodes share one reference file (named after the first fixture that produced it)
  ref = refs.setdefault(hashlib.sha256(data).hexdigest(), name + '.f32')
  if ref == name + '.f32':
    with open(os.path.join(out, ref), 'wb') as w: w.write(data)
  container, codec = kinds[ext]
  if codec is None:
    sub = info.format & 0xffff
    codec = 'float' if sub in (6, 7) else 'pcm'
  index.append({'file': name, 'container': container, 'codec': codec, 'sampleRate': info.samplerate,
                'channels': info.channels, 'frames': got, 'lossless': ext in ('.wav', '.flac', '.oga'), 'reference': ref,
                'referenceTool': tool, 'libsndfileReads': tool == 'libsndfile'})
json.dump({'referenceDecoder': lib.sf_version_string().decode(), 'layout': 'float32 little-endian, interleaved [frames, channels]',
           'fixtures': index}, open(os.path.join(out, 'fixtures.json'), 'w'), indent=2)
print(f'{len(index)} fixtures, reference {lib.sf_version_string().decode()}')
EOF
# --- FLAC streams ordinary encoders do not write
rm -rf "$OUT/flac" && mkdir -p "$OUT/flac"
/usr/bin/python3 scripts/make-flac-fixtures.py "$OUT/speech-16k-mono-s16.wav" "$OUT/speech-44k-stereo-s16.wav" "$OUT/flac"
du -sh "$OUT"
