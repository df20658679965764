import { createApp, problemStyle } from '@comms/core';
import { calls } from './routes/calls';
import { files } from './routes/files';
import { live } from './routes/live';
import { jwtOnly } from './routes/shared';

/** The Voice family's HTTP surface: application JWTs only, problem bodies with `invalid_parameters`. */
export const app = createApp<Env>({ style: problemStyle() });

app.use('/v1/calls', jwtOnly);
app.use('/v1/calls/*', jwtOnly);
app.use('/v1/files/*', jwtOnly);
app.use('/v3/files/*', jwtOnly);
app.route('/', calls);
app.route('/', live);
app.route('/', files);
