/**
 * The bench's own ports, away from `npm start` (3000/4000/4433-4445) and the e2e stacks
 * (3100-3150, 4100-4150, 4533-4595).
 */
export const ports = {
  portal: 5200,
  demo: 5201,
  identityPublic: 5202,
  identityAdmin: 5203,
  mailbox: 5204,
  oauth2Public: 5205,
  oauth2Admin: 5206,
  bareFastify: 5207,
} as const;

export const urls = {
  portal: `http://localhost:${ports.portal}`,
  identityPublic: `http://127.0.0.1:${ports.identityPublic}`,
  identityAdmin: `http://127.0.0.1:${ports.identityAdmin}`,
  oauth2Public: `http://localhost:${ports.oauth2Public}`,
  oauth2Admin: `http://127.0.0.1:${ports.oauth2Admin}`,
  bareFastify: `http://127.0.0.1:${ports.bareFastify}`,
} as const;
