// Every script runs on the Node that the `node` devDependency installs; the system Node only runs npm.
const major = process.versions.node.split(".")[0];
if (major !== "24") {
  console.error(
    `This project runs on Node 24 (from the "node" devDependency), but this script got Node ${process.version}.\n` +
      `Run it through npm (npm start, npm test) so node_modules/.bin/node is used, or run "npm rebuild node".\n` +
      `A production install (npm ci --omit=dev) has no such Node: put Node 24 on the PATH before npm run start:prod.`,
  );
  process.exit(1);
}
