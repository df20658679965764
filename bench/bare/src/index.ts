import { Hono } from 'hono';

const app = new Hono();
app.all('*', (c) => c.json({ status: '0' }));

export default app;
