/**
 * The bench's own ports, away from `npm start` (3000/4000/4433-4445) and the e2e stacks
 * (3100-3150, 4100-4150, 4533-4595). BENCH_PORT_BASE moves them (for example to run the memory
 * probe next to a bench).
 */
const base = Number(process.env.BENCH_PORT_BASE ?? 5200);
export const ports = {
  portal: base,
  demo: base + 1,
  identityPublic: base + 2,
  identityAdmin: base + 3,
  mailbox: base + 4,
  oauth2Public: base + 5,
  oauth2Admin: base + 6,
  bareFastify: base + 7,
  portalMetrics: base + 8,
} as const;

export const urls = {
  portal: `http://localhost:${ports.portal}`,
  identityPublic: `http://127.0.0.1:${ports.identityPublic}`,
  identityAdmin: `http://127.0.0.1:${ports.identityAdmin}`,
  oauth2Public: `http://localhost:${ports.oauth2Public}`,
  oauth2Admin: `http://127.0.0.1:${ports.oauth2Admin}`,
  bareFastify: `http://127.0.0.1:${ports.bareFastify}`,
  portalMetrics: `http://127.0.0.1:${ports.portalMetrics}`,
} as const;
