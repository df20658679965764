import { describe, expect, it } from 'vitest';
import {
  CHUNK_BYTES,
  type RecordingFormat,
  recordingAudio,
  recordingAudioChunks,
  recordingContentType,
  recordingSize,
} from './recording-audio';

const text = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const allZero = (bytes: Uint8Array) => bytes.every((b) => b === 0);
const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Checks without `expect`, which is too slow for the hundreds of thousands of frames of an hour. */
function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** The Ogg CRC bit by bit, independent of the table the module uses. */
function crc32(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc = (crc ^ (byte << 24)) >>> 0;
    for (let bit = 0; bit < 8; bit++) crc = (crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1) >>> 0;
  }
  return crc;
}

interface WavInfo {
  formatTag: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
  data: Uint8Array;
}

function parseWav(file: Uint8Array): WavInfo {
  const v = view(file);
  expect(text(file, 0, 4)).toBe('RIFF');
  expect(v.getUint32(4, true)).toBe(file.length - 8);
  expect(text(file, 8, 4)).toBe('WAVE');
  expect(text(file, 12, 4)).toBe('fmt ');
  const fmtSize = v.getUint32(16, true);
  const dataAt = 20 + fmtSize;
  expect(text(file, dataAt, 4)).toBe('data');
  const dataSize = v.getUint32(dataAt + 4, true);
  expect(dataAt + 8 + dataSize).toBe(file.length);
  return {
    formatTag: v.getUint16(20, true),
    channels: v.getUint16(22, true),
    sampleRate: v.getUint32(24, true),
    byteRate: v.getUint32(28, true),
    blockAlign: v.getUint16(32, true),
    bitsPerSample: v.getUint16(34, true),
    data: file.subarray(dataAt + 8),
  };
}

interface Mp3Frame {
  channelMode: number;
  length: number;
}

/** Splits a file into MPEG-1 Layer III frames, checking each header and that they tile the file. */
function parseMp3(file: Uint8Array): Mp3Frame[] {
  const bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
  const sampleRates = [44100, 48000, 32000];
  const frames: Mp3Frame[] = [];
  let at = 0;
  while (at < file.length) {
    const header = view(file).getUint32(at, false);
    assert(header >>> 21 === 0x7ff, `frame sync at ${at}`);
    assert(((header >>> 19) & 3) === 3, `MPEG-1 at ${at}`);
    assert(((header >>> 17) & 3) === 1, `Layer III at ${at}`);
    assert(((header >>> 16) & 1) === 1, `no CRC at ${at}`);
    const bitrate = bitrates[(header >>> 12) & 15]! * 1000;
    const sampleRate = sampleRates[(header >>> 10) & 3]!;
    assert(bitrate === 32000 && sampleRate === 48000, `32 kbit/s at 48 kHz at ${at}`);
    const padding = (header >>> 9) & 1;
    const length = Math.floor((144 * bitrate) / sampleRate) + padding;
    assert(at + length <= file.length, `whole frame at ${at}`);
    // Side information and main data all zero: no bits, silence.
    assert(allZero(file.subarray(at + 4, at + length)), `silent frame at ${at}`);
    frames.push({ channelMode: (header >>> 6) & 3, length });
    at += length;
  }
  return frames;
}

interface OggPage {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  packets: Uint8Array[];
}

/** Splits a file into Ogg pages, re-verifying each CRC; packets here never span pages. */
function parseOgg(file: Uint8Array): OggPage[] {
  const pages: OggPage[] = [];
  let at = 0;
  while (at < file.length) {
    const v = view(file.subarray(at));
    assert(text(file, at, 4) === 'OggS' && file[at + 4] === 0, `page header at ${at}`);
    const segments = file[at + 26]!;
    const lacing = file.subarray(at + 27, at + 27 + segments);
    const end = at + 27 + segments + lacing.reduce((sum, l) => sum + l, 0);
    assert(end <= file.length, `whole page at ${at}`);
    const page = file.slice(at, end);
    page.fill(0, 22, 26);
    assert(crc32(page) === v.getUint32(22, true), `CRC of the page at ${at}`);
    const packets: Uint8Array[] = [];
    let packetAt = at + 27 + segments;
    for (const length of lacing) {
      assert(length < 255, `packet ending on the page at ${at}`);
      packets.push(file.subarray(packetAt, packetAt + length));
      packetAt += length;
    }
    pages.push({
      flags: file[at + 5]!,
      granule: v.getBigInt64(6, true),
      serial: v.getUint32(14, true),
      sequence: v.getUint32(18, true),
      packets,
    });
    at = end;
  }
  return pages;
}

const formats: RecordingFormat[] = ['wav', 'mp3', 'ogg'];
const durations = [0, 1, 19, 20, 21, 23, 24, 25, 999, 1000, 60_000];
const longDurations = [3_600_000, 7_200_000];

describe('recordingContentType', () => {
  it('names the MIME type of each format', () => {
    expect(formats.map(recordingContentType)).toEqual(['audio/wav', 'audio/mpeg', 'audio/ogg']);
  });
});

describe('recordingSize', () => {
  it.each(formats)('is the length of the %s file, whatever the duration and channels', (format) => {
    const channelCounts = format === 'wav' ? [1, 2, 3, 6] : [1, 2, 5, 32];
    for (const durationMs of [...durations, 12.5, 1000.3]) {
      for (const channels of channelCounts) {
        expect(recordingAudio(format, durationMs, channels).length).toBe(
          recordingSize(format, durationMs, channels),
        );
      }
    }
  });

  it.each(['mp3', 'ogg'] as const)('is the length of an hour or two of %s', (format) => {
    for (const durationMs of longDurations) {
      expect(recordingAudio(format, durationMs, 2).length).toBe(recordingSize(format, durationMs, 2));
    }
  });

  it('is what the formats make of a second and of two hours', () => {
    expect(recordingSize('wav', 1000, 1)).toBe(44 + 16_000);
    expect(recordingSize('wav', 1000, 6)).toBe(68 + 96_000);
    expect(recordingSize('mp3', 1000, 1)).toBe(42 * 96);
    expect(recordingSize('mp3', 7_200_000, 2)).toBe(300_000 * 96);
    expect(recordingSize('wav', 7_200_000, 1)).toBe(44 + 115_200_000);
    expect(recordingSize('ogg', 7_200_000, 1)).toBeLessThan(2_000_000);
  });

  it('refuses durations and channel counts there cannot be', () => {
    for (const [durationMs, channels] of [
      [-1, 1],
      [Number.NaN, 1],
      [Number.POSITIVE_INFINITY, 1],
      [1000, 0],
      [1000, 33],
      [1000, 1.5],
    ] as const) {
      for (const format of formats) {
        expect(() => recordingSize(format, durationMs, channels)).toThrow(RangeError);
        expect(() => recordingAudio(format, durationMs, channels)).toThrow(RangeError);
      }
    }
  });
});

describe('recordingAudio', () => {
  it.each(formats)('gives the same %s bytes for the same arguments', (format) => {
    expect(sameBytes(recordingAudio(format, 4321, 2), recordingAudio(format, 4321, 2))).toBe(true);
  });

  it.each(formats)('yields the %s file in chunks of at most CHUNK_BYTES', (format) => {
    const durationMs = format === 'wav' ? 20_000 : 600_000;
    const chunks = [...recordingAudioChunks(format, durationMs, 2)];
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(CHUNK_BYTES);
    const joined = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    expect(sameBytes(joined, recordingAudio(format, durationMs, 2))).toBe(true);
  });
});

describe('wav', () => {
  it('is 16-bit PCM at 8000 Hz of zero samples, one per 125 µs', () => {
    for (const [durationMs, channels, samples] of [
      [0, 1, 1],
      [1, 1, 8],
      [21, 2, 168],
      [1000, 1, 8000],
      [60_000, 2, 480_000],
      [0.01, 1, 1],
      [1000.3, 1, 8003],
    ] as const) {
      const wav = parseWav(recordingAudio('wav', durationMs, channels));
      expect(wav).toMatchObject({
        formatTag: 1,
        channels,
        sampleRate: 8000,
        byteRate: 16_000 * channels,
        blockAlign: 2 * channels,
        bitsPerSample: 16,
      });
      expect(wav.data.length).toBe(samples * 2 * channels);
      expect(allZero(wav.data)).toBe(true);
    }
  });

  it('is WAVE_FORMAT_EXTENSIBLE PCM above two channels', () => {
    for (const channels of [3, 6, 32]) {
      const file = recordingAudio('wav', 500, channels);
      const wav = parseWav(file);
      expect(wav).toMatchObject({
        formatTag: 0xfffe,
        channels,
        sampleRate: 8000,
        byteRate: 16_000 * channels,
        blockAlign: 2 * channels,
        bitsPerSample: 16,
      });
      const v = view(file);
      expect(v.getUint32(16, true)).toBe(40);
      expect(v.getUint16(36, true)).toBe(22); // cbSize
      expect(v.getUint16(38, true)).toBe(16); // valid bits
      expect(v.getUint32(40, true)).toBe(0); // channel mask
      expect([...file.subarray(44, 60)]).toEqual([
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
      ]);
      expect(wav.data.length).toBe(4000 * 2 * channels);
      expect(allZero(wav.data)).toBe(true);
    }
  });
});

describe('mp3', () => {
  it('is whole 24 ms frames of silence covering the duration, at least one', () => {
    for (const durationMs of [...durations, ...longDurations.slice(0, 1)]) {
      const frames = parseMp3(recordingAudio('mp3', durationMs, 1));
      expect(frames.length).toBe(Math.max(1, Math.ceil(durationMs / 24)));
      expect(frames.every((f) => f.channelMode === 3 && f.length === 96)).toBe(true);
    }
  });

  it('is mono for one channel and stereo for more', () => {
    for (const [channels, mode] of [
      [1, 3],
      [2, 0],
      [32, 0],
    ] as const) {
      const frames = parseMp3(recordingAudio('mp3', 100, channels));
      expect(frames.map((f) => f.channelMode)).toEqual([mode, mode, mode, mode, mode]);
    }
  });
});

describe('ogg', () => {
  it('checks pages with the Ogg CRC', () => {
    // CRC-32/CKSUM's check value without its final xor.
    expect(crc32(new TextEncoder().encode('123456789'))).toBe((0x765e7680 ^ 0xffffffff) >>> 0);
  });

  it('is Ogg Opus pages of 20 ms silence trimmed to the duration', () => {
    for (const durationMs of [...durations, 1000.3, ...longDurations]) {
      for (const channels of [1, 2]) {
        const pages = parseOgg(recordingAudio('ogg', durationMs, channels));
        const [head, tags, ...audio] = pages;

        expect(pages.map((p) => p.sequence)).toEqual(pages.map((_, i) => i));
        expect(new Set(pages.map((p) => p.serial)).size).toBe(1);
        expect(pages.map((p) => p.flags)).toEqual([2, ...pages.slice(1, -1).map(() => 0), 4]);

        expect(head!.granule).toBe(0n);
        expect(head!.packets.length).toBe(1);
        const opusHead = head!.packets[0]!;
        const headView = view(opusHead);
        expect(text(opusHead, 0, 8)).toBe('OpusHead');
        expect(opusHead.length).toBe(19);
        expect(opusHead[8]).toBe(1); // version
        expect(opusHead[9]).toBe(channels);
        expect(headView.getUint16(10, true)).toBe(312); // pre-skip
        expect(headView.getUint32(12, true)).toBe(48_000);
        expect(headView.getInt16(16, true)).toBe(0); // gain
        expect(opusHead[18]).toBe(0); // mapping family

        expect(tags!.granule).toBe(0n);
        expect(tags!.packets.length).toBe(1);
        const opusTags = tags!.packets[0]!;
        const vendorLength = view(opusTags).getUint32(8, true);
        expect(text(opusTags, 0, 8)).toBe('OpusTags');
        expect(opusTags.length).toBe(8 + 4 + vendorLength + 4);
        expect(view(opusTags).getUint32(12 + vendorLength, true)).toBe(0);

        const silence = [channels === 1 ? 0xf8 : 0xfc, 0xff, 0xfe];
        const silent = (packet: Uint8Array) =>
          packet.length === 3 && packet.every((b, i) => b === silence[i]);
        let packets = 0;
        let granule = 0n;
        for (const page of audio) {
          assert(page.packets.length > 0 && page.packets.length <= 255, `packets on page ${page.sequence}`);
          assert(page.packets.every(silent), `silence on page ${page.sequence}`);
          packets += page.packets.length;
          // Granule positions rise, never past the samples of the packets so far.
          assert(page.granule > granule, `granule of page ${page.sequence}`);
          assert(page.granule <= BigInt(packets * 960), `granule of page ${page.sequence}`);
          granule = page.granule;
        }
        const samples = Math.max(1, Math.ceil(durationMs * 48));
        expect(granule).toBe(BigInt(312 + samples));
        // As few packets as the pre-skip and the duration need.
        expect(packets).toBe(Math.ceil((312 + samples) / 960));
      }
    }
  });

  it('is stereo for more than two channels', () => {
    const [head, , first] = parseOgg(recordingAudio('ogg', 100, 32));
    expect(head!.packets[0]![9]).toBe(2);
    expect(first!.packets[0]![0]).toBe(0xfc);
  });
});
