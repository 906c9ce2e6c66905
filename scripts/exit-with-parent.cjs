/**
 * Preloaded into the Next.js server that `npm start` spawns (NODE_OPTIONS=--require): when the
 * starting process dies without a chance to stop it (SIGKILL, a crash), this process exits too,
 * instead of living on as an orphan that holds the port and talks to a database that is gone
 * (on the embedded database the starting process is the database). Linux gives a child no such
 * signal by itself; the parent id changing is the sign.
 */
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 500).unref();
