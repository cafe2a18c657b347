// The baseline for /sessions/whoami: a bare Fastify 5 route returning a small JSON, in its own
// process, as the identity server runs in its own (started by the bench with BARE_PORT).
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", () => ({ hello: "world" }));
await app.listen({ host: "127.0.0.1", port: Number(process.env.BARE_PORT ?? 0) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
