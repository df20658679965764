/**
 * Synthesised recordings. A simulated recording is only metadata (format, duration, channels); a
 * download gets a valid audio file of silence of that duration, built here with Web APIs only
 * (Uint8Array and DataView: the service runs in workerd).
 *
 * The formats:
 * - `wav`: RIFF/WAVE, 16-bit PCM at 8000 Hz, any channel count (WAVE_FORMAT_EXTENSIBLE above two
 *   channels, as the format asks), whole samples: `ceil(durationMs × 8)`, at least one.
 * - `mp3`: MPEG-1 Layer III, 48 kHz, 32 kbit/s, no CRC: every frame is 96 bytes (no padding ever
 *   needed) and lasts 24 ms; `ceil(durationMs / 24)` frames, at least one. Mono for one channel,
 *   stereo for more. A frame whose side information is all zeros has no main data: silence.
 * - `ogg`: Ogg Opus (RFC 7845), pre-skip 312, 20 ms CELT packets of silence, 50 packets (one
 *   second) per page; the last page's granule position trims the stream to `ceil(durationMs × 48)`
 *   samples at 48 kHz, at least one. Mono for one channel, stereo for more (mapping family 0 allows
 *   no more than two).
 *
 * Sizes: two hours is about 28.8 MB of mp3 and 1.6 MB of ogg, but 115 MB of wav per channel.
 * `recordingAudio` builds the whole file at once; `recordingAudioChunks` yields it in pieces of at
 * most {@link CHUNK_BYTES} for a streamed response, which is what a long wav needs in a worker.
 */

/** The audio formats of a recording. */
export type RecordingFormat = 'mp3' | 'wav' | 'ogg';

/** The most bytes `recordingAudioChunks` yields at once (a header may come on its own). */
export const CHUNK_BYTES = 64 * 1024;

const CONTENT_TYPES: Record<RecordingFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
};

/**
 * The MIME type of a recording format: `audio/mpeg`, `audio/wav` or `audio/ogg`.
 *
 * @example
 * recordingContentType('mp3') // 'audio/mpeg'
 */
export function recordingContentType(format: RecordingFormat): string {
  return CONTENT_TYPES[format];
}

/**
 * The exact byte length `recordingAudio(format, durationMs, channels)` returns, computed without
 * building the bytes (events carry the size before anyone downloads).
 *
 * @throws RangeError when `durationMs` is negative or not finite, or `channels` is not an integer
 * from 1 to 32.
 * @example
 * recordingSize('mp3', 1000, 1) // 4032: 42 frames of 96 bytes
 */
export function recordingSize(format: RecordingFormat, durationMs: number, channels: number): number {
  check(durationMs, channels);
  switch (format) {
    case 'wav':
      return wavLayout(durationMs, channels).size;
    case 'mp3':
      return mp3Frames(durationMs) * MP3_FRAME_BYTES;
    case 'ogg':
      return oggLayout(durationMs, channels).size;
  }
}

/**
 * A valid audio file of silence lasting `durationMs` (rounded up to whole samples or frames as the
 * format requires, at least one) with `channels` channels: any count in wav, mono or stereo in mp3
 * and ogg (more than two become stereo). Deterministic: the same arguments give the same bytes, and
 * exactly `recordingSize(format, durationMs, channels)` of them. Long wav files are big (115 MB per
 * channel for two hours): stream those with {@link recordingAudioChunks}.
 *
 * @throws RangeError as {@link recordingSize} does, or when a wav would pass the 4 GiB RIFF limit.
 * @example
 * new Response(recordingAudio('ogg', 5000, 1), { headers: { 'content-type': recordingContentType('ogg') } })
 */
export function recordingAudio(format: RecordingFormat, durationMs: number, channels: number): Uint8Array {
  const file = new Uint8Array(recordingSize(format, durationMs, channels));
  let offset = 0;
  for (const chunk of recordingAudioChunks(format, durationMs, channels)) {
    file.set(chunk, offset);
    offset += chunk.length;
  }
  return file;
}

/**
 * The bytes of `recordingAudio(format, durationMs, channels)`, in order, in fresh chunks of at most
 * {@link CHUNK_BYTES}: memory stays small whatever the duration.
 *
 * @throws RangeError as {@link recordingAudio} does, on the first `next()`.
 * @example
 * const chunks = recordingAudioChunks('wav', 7_200_000, 2)[Symbol.iterator]();
 * new ReadableStream<Uint8Array>({
 *   pull(controller) {
 *     const next = chunks.next();
 *     if (next.done) controller.close();
 *     else controller.enqueue(next.value);
 *   },
 * });
 */
export function* recordingAudioChunks(
  format: RecordingFormat,
  durationMs: number,
  channels: number,
): Generator<Uint8Array, void, undefined> {
  check(durationMs, channels);
  switch (format) {
    case 'wav':
      yield* wavChunks(durationMs, channels);
      return;
    case 'mp3':
      yield* mp3Chunks(durationMs, channels);
      return;
    case 'ogg':
      yield* oggChunks(durationMs, channels);
      return;
  }
}

function check(durationMs: number, channels: number): void {
  if (!Number.isFinite(durationMs) || durationMs < 0) {
    throw new RangeError(`durationMs must be a finite number ≥ 0, not ${durationMs}`);
  }
  if (!Number.isInteger(channels) || channels < 1 || channels > 32) {
    throw new RangeError(`channels must be an integer from 1 to 32, not ${channels}`);
  }
}

/** Writes `text` (ASCII) at `offset`. */
function ascii(target: Uint8Array, offset: number, text: string): void {
  for (let i = 0; i < text.length; i++) target[offset + i] = text.charCodeAt(i);
}

// --- WAV ---------------------------------------------------------------------------------------

/** Samples per second and per channel. */
const WAV_SAMPLE_RATE = 8000;
const WAV_BYTES_PER_SAMPLE = 2;
/** RIFF header (12), `fmt ` chunk with its 16-byte PCM format (24), `data` chunk header (8). */
const WAV_PCM_HEADER_BYTES = 44;
/** The same with the 40-byte WAVE_FORMAT_EXTENSIBLE format. */
const WAV_EXTENSIBLE_HEADER_BYTES = 68;
/** KSDATAFORMAT_SUBTYPE_PCM, 00000001-0000-0010-8000-00aa00389b71, as stored. */
const PCM_SUBFORMAT = [
  0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
];

function wavLayout(durationMs: number, channels: number) {
  const samples = Math.max(1, Math.ceil(durationMs * (WAV_SAMPLE_RATE / 1000)));
  const headerBytes = channels > 2 ? WAV_EXTENSIBLE_HEADER_BYTES : WAV_PCM_HEADER_BYTES;
  const dataBytes = samples * channels * WAV_BYTES_PER_SAMPLE;
  return { samples, headerBytes, dataBytes, size: headerBytes + dataBytes };
}

function* wavChunks(durationMs: number, channels: number): Generator<Uint8Array, void, undefined> {
  const { headerBytes, dataBytes, size } = wavLayout(durationMs, channels);
  if (size - 8 > 0xffffffff) throw new RangeError(`a wav of ${size} bytes passes the RIFF limit`);
  const header = new Uint8Array(headerBytes);
  const view = new DataView(header.buffer);
  const blockAlign = channels * WAV_BYTES_PER_SAMPLE;
  ascii(header, 0, 'RIFF');
  view.setUint32(4, size - 8, true);
  ascii(header, 8, 'WAVE');
  ascii(header, 12, 'fmt ');
  view.setUint32(16, headerBytes - 28, true);
  view.setUint16(20, channels > 2 ? 0xfffe : 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, WAV_SAMPLE_RATE, true);
  view.setUint32(28, WAV_SAMPLE_RATE * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, WAV_BYTES_PER_SAMPLE * 8, true);
  if (channels > 2) {
    view.setUint16(36, 22, true); // cbSize
    view.setUint16(38, WAV_BYTES_PER_SAMPLE * 8, true); // valid bits per sample
    view.setUint32(40, 0, true); // channel mask: no speaker positions
    header.set(PCM_SUBFORMAT, 44);
  }
  ascii(header, headerBytes - 8, 'data');
  view.setUint32(headerBytes - 4, dataBytes, true);
  yield header;
  for (let left = dataBytes; left > 0; left -= CHUNK_BYTES) yield new Uint8Array(Math.min(left, CHUNK_BYTES));
}

// --- MP3 ---------------------------------------------------------------------------------------

/** MPEG-1 Layer III at 48 kHz: 1152 samples a frame. */
const MP3_FRAME_MS = 24;
/** 144 × 32000 / 48000: whole, so no frame is ever padded. */
const MP3_FRAME_BYTES = 96;
/** Sync, MPEG-1, Layer III, no CRC; 32 kbit/s (index 1), 48 kHz (index 1), no padding. */
const MP3_HEADER = [0xff, 0xfb, 0x14];
/** The fourth header byte: mono (mode 3) or stereo (mode 0); no copyright, original, emphasis. */
const MP3_MONO = 0xc0;
const MP3_STEREO = 0x00;

function mp3Frames(durationMs: number): number {
  return Math.max(1, Math.ceil(durationMs / MP3_FRAME_MS));
}

function* mp3Chunks(durationMs: number, channels: number): Generator<Uint8Array, void, undefined> {
  // The side information (17 bytes mono, 32 stereo) and the main data stay zero: main_data_begin 0,
  // part2_3_length 0 and big_values 0 in every granule and channel, so every spectral value is zero.
  const frame = new Uint8Array(MP3_FRAME_BYTES);
  frame.set(MP3_HEADER);
  frame[3] = channels === 1 ? MP3_MONO : MP3_STEREO;
  const framesPerChunk = Math.floor(CHUNK_BYTES / MP3_FRAME_BYTES);
  for (let left = mp3Frames(durationMs); left > 0; left -= framesPerChunk) {
    const count = Math.min(left, framesPerChunk);
    const chunk = new Uint8Array(count * MP3_FRAME_BYTES);
    for (let i = 0; i < count; i++) chunk.set(frame, i * MP3_FRAME_BYTES);
    yield chunk;
  }
}

// --- Ogg Opus ----------------------------------------------------------------------------------

/** Samples (48 kHz) the decoder drops at the start: libopus's encoder delay. */
const OPUS_PRE_SKIP = 312;
/** Samples at 48 kHz in one 20 ms Opus packet. */
const OPUS_PACKET_SAMPLES = 960;
/** Packets on each audio page but the last: one second. */
const OPUS_PACKETS_PER_PAGE = 50;
/**
 * A 20 ms CELT-only fullband packet, one frame (TOC config 31, code 0; 0xf8 mono, 0xfc with the
 * stereo bit) whose range-coded payload 0xff 0xfe decodes the silence flag as 1 (the first symbol,
 * at probability 1/32768, read against val 0xffff < rng >> 15): the decoder outputs zeros.
 */
const OPUS_SILENCE_MONO = [0xf8, 0xff, 0xfe];
const OPUS_SILENCE_STEREO = [0xfc, 0xff, 0xfe];
const OPUS_PACKET_BYTES = 3;
/** The stream's serial number: fixed, so the output is deterministic. */
const OGG_SERIAL = 0x766f6963; // 'voic'
const OGG_HEADER_BYTES = 27;
const OGG_BOS = 0x02;
const OGG_EOS = 0x04;
const OPUS_VENDOR = 'comms voice simulator';
/** "OpusHead", version, channels, pre-skip, input rate, gain, mapping family. */
const OPUS_HEAD_BYTES = 19;
/** "OpusTags", vendor length, vendor, comment count (none). */
const OPUS_TAGS_BYTES = 8 + 4 + OPUS_VENDOR.length + 4;

function oggLayout(durationMs: number, channels: number) {
  const samples = Math.max(1, Math.ceil(durationMs * 48));
  const packets = Math.ceil((OPUS_PRE_SKIP + samples) / OPUS_PACKET_SAMPLES);
  const pages = Math.ceil(packets / OPUS_PACKETS_PER_PAGE);
  const headPage = OGG_HEADER_BYTES + 1 + OPUS_HEAD_BYTES;
  const tagsPage = OGG_HEADER_BYTES + 1 + OPUS_TAGS_BYTES;
  // Every packet takes one lacing value (3) in its page's segment table and its 3 bytes.
  const audio = pages * OGG_HEADER_BYTES + packets * (1 + OPUS_PACKET_BYTES);
  return { channels: Math.min(channels, 2), samples, packets, size: headPage + tagsPage + audio };
}

function* oggChunks(durationMs: number, channels: number): Generator<Uint8Array, void, undefined> {
  const layout = oggLayout(durationMs, channels);
  const head = new Uint8Array(OPUS_HEAD_BYTES);
  const headView = new DataView(head.buffer);
  ascii(head, 0, 'OpusHead');
  head[8] = 1; // version
  head[9] = layout.channels;
  headView.setUint16(10, OPUS_PRE_SKIP, true);
  headView.setUint32(12, 48000, true); // input sample rate, informational
  headView.setInt16(16, 0, true); // output gain
  head[18] = 0; // mapping family 0: mono or stereo, no mapping table
  const tags = new Uint8Array(OPUS_TAGS_BYTES);
  ascii(tags, 0, 'OpusTags');
  new DataView(tags.buffer).setUint32(8, OPUS_VENDOR.length, true);
  ascii(tags, 12, OPUS_VENDOR);
  // The comment count after the vendor stays 0.
  const headers = new Uint8Array(2 * (OGG_HEADER_BYTES + 1) + OPUS_HEAD_BYTES + OPUS_TAGS_BYTES);
  const tagsAt = oggPage(headers, 0, head, OGG_BOS, 0, 0);
  oggPage(headers, tagsAt, tags, 0, 0, 1);
  yield headers;

  const silence = layout.channels === 1 ? OPUS_SILENCE_MONO : OPUS_SILENCE_STEREO;
  const body = new Uint8Array(OPUS_PACKETS_PER_PAGE * OPUS_PACKET_BYTES);
  for (let i = 0; i < OPUS_PACKETS_PER_PAGE; i++) body.set(silence, i * OPUS_PACKET_BYTES);
  const fullPageBytes = OGG_HEADER_BYTES + OPUS_PACKETS_PER_PAGE * (1 + OPUS_PACKET_BYTES);
  const pagesPerChunk = Math.floor(CHUNK_BYTES / fullPageBytes);
  let sequence = 2;
  let written = 0;
  while (written < layout.packets) {
    const packets = Math.min(pagesPerChunk * OPUS_PACKETS_PER_PAGE, layout.packets - written);
    const pages = Math.ceil(packets / OPUS_PACKETS_PER_PAGE);
    const chunk = new Uint8Array(pages * OGG_HEADER_BYTES + packets * (1 + OPUS_PACKET_BYTES));
    let offset = 0;
    while (offset < chunk.length) {
      const count = Math.min(OPUS_PACKETS_PER_PAGE, layout.packets - written);
      written += count;
      const last = written === layout.packets;
      // The last page trims the stream to its duration; the others end on their last packet.
      const granule = last ? OPUS_PRE_SKIP + layout.samples : written * OPUS_PACKET_SAMPLES;
      offset = oggPage(
        chunk,
        offset,
        body.subarray(0, count * OPUS_PACKET_BYTES),
        last ? OGG_EOS : 0,
        granule,
        sequence++,
        OPUS_PACKET_BYTES,
      );
    }
    yield chunk;
  }
}

/**
 * Writes one Ogg page at `offset` of `target` and returns where it ends. The page holds `payload`:
 * one packet, or (with `packetBytes`) packets of that size each; either way every packet is shorter
 * than 255 bytes, so takes one lacing value.
 */
function oggPage(
  target: Uint8Array,
  offset: number,
  payload: Uint8Array,
  flags: number,
  granule: number,
  sequence: number,
  packetBytes = payload.length,
): number {
  const segments = payload.length / packetBytes;
  const view = new DataView(target.buffer, target.byteOffset + offset, OGG_HEADER_BYTES);
  ascii(target, offset, 'OggS');
  target[offset + 4] = 0; // version
  target[offset + 5] = flags;
  view.setUint32(6, granule % 0x100000000, true);
  view.setUint32(10, Math.floor(granule / 0x100000000), true);
  view.setUint32(14, OGG_SERIAL, true);
  view.setUint32(18, sequence, true);
  view.setUint32(22, 0, true); // the CRC, computed with this field zero
  target[offset + 26] = segments;
  target.fill(packetBytes, offset + OGG_HEADER_BYTES, offset + OGG_HEADER_BYTES + segments);
  const end = offset + OGG_HEADER_BYTES + segments + payload.length;
  target.set(payload, end - payload.length);
  view.setUint32(22, oggCrc(target.subarray(offset, end)), true);
  return end;
}

let crcTable: Uint32Array | undefined;

/** The Ogg CRC-32: polynomial 0x04c11db7, not reflected, initial value 0, no final xor. */
function oggCrc(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let r = i << 24;
      for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
      crcTable[i] = r >>> 0;
    }
  }
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ crcTable[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}
