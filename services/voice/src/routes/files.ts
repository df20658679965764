import { ApiError, authOf, ERROR_TYPES, type FamilyEnv } from '@comms/core';
import { Hono } from 'hono';
import { indexOf } from '../objects';
import { recordingAudioChunks, recordingContentType, recordingSize } from '../recording-audio';
import { isUuid } from '../sandbox';

/**
 * Recordings made by `record` actions and recorded conversations: the `recording_url` of a record
 * event (`/v1/files/:uuid`), and `/v3/files/:uuid` where the official SDK downloads by id. Only the
 * account whose call made the recording may fetch it; the audio is silence of the recording's length.
 */
export const files = new Hono<FamilyEnv<Env>>();

files.get('/:version{v1|v3}/files/:uuid', async (c) => {
  const uuid = c.req.param('uuid');
  const { apiKey } = authOf(c);
  const recording = isUuid(uuid) ? await indexOf(c.env, apiKey).recording(uuid) : null;
  if (!recording) {
    throw new ApiError({
      kind: 'not-found',
      type: ERROR_TYPES.notFound,
      detail: `Recording '${uuid}' was not found`,
    });
  }
  const { format, channels } = recording;
  const durationMs = recording.endedAt - recording.startedAt;
  // Streamed in chunks: a two-hour WAV would not fit a worker's memory in one piece.
  const chunks = recordingAudioChunks(format, durationMs, channels);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return c.body(body, 200, {
    'Content-Type': recordingContentType(format),
    'Content-Length': String(recordingSize(format, durationMs, channels)),
    'Content-Disposition': `attachment; filename="${uuid}.${format}"`,
  });
});
