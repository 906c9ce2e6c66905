/**
 * npm run bench -- email: the outbox's link extraction (lib/email/list-email-sends.ts, emailLinks)
 * on the worst stored HTML we could build, before (the anchor pattern it used to run) and after
 * (htmlparser2's tokenizer). Any member can write an email_sends row, and the outbox page runs
 * this on every row it shows, in the request. The old function runs in a worker thread that is
 * stopped after OLD_LIMIT_MS, so that a catastrophic input reports "> limit" instead of hanging.
 * Needs no database.
 */
import { Worker } from "node:worker_threads";
import { emailLinks } from "@/lib/email/list-email-sends";

const OLD_LIMIT_MS = 20_000;

// the function as it was, verbatim, run in a worker
const OLD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
function emailLinks(html) {
  if (!html) return [];
  const links = [];
  for (const match of html.matchAll(/<a\\b[^>]*\\bhref\\s*=\\s*(["'])(.*?)\\1[^>]*>([\\s\\S]*?)<\\/a>/gi)) {
    const href = match[2].replaceAll("&amp;", "&");
    if (!/^https?:\\/\\//i.test(href)) continue;
    const text = match[3].replace(/<[^>]*>/g, "").replace(/&[a-z#0-9]+;/gi, " ").trim();
    links.push({ href, text: text || href });
  }
  return links;
}
const t = performance.now();
const n = emailLinks(workerData).length;
parentPort.postMessage({ ms: performance.now() - t, n });
`;

function oldTime(html: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(OLD_SOURCE, { eval: true, workerData: html });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve(`> ${OLD_LIMIT_MS / 1000} s (stopped)`);
    }, OLD_LIMIT_MS);
    worker.once("message", (m: { ms: number; n: number }) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(`${m.ms.toFixed(1)} ms (${m.n} links)`);
    });
    worker.once("error", reject);
  });
}

/** The median of five runs (the machine is shared: one run is noisy). */
function newTime(html: string): string {
  const times: number[] = [];
  let n = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    n = emailLinks(html).length;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return `${times[2].toFixed(1)} ms (${n} links)`;
}

const KB = 1024;
const fill = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length));
const unclosed = '<a href="https://example.com/x">';

const INPUTS: [string, string][] = [
  ["200 unclosed anchors", unclosed.repeat(200)],
  ["400 unclosed anchors", unclosed.repeat(400)],
  ["800 unclosed anchors", unclosed.repeat(800)],
  ["1,600 unclosed anchors", unclosed.repeat(1600)],
  ["3,200 unclosed anchors (100 KB)", unclosed.repeat(3200)],
  ["1 MB of unclosed anchors", fill(unclosed, 1024 * KB)],
  ["anchors, one </a> at the end (100 KB)", fill(unclosed, 100 * KB) + "</a>"],
  ["100 KB nested unclosed tags", fill("<div><span><b><a ", 100 * KB)],
  ["1 MB nested unclosed tags", fill("<div><span><b><a ", 1024 * KB)],
  ["<a with 100 KB of href= attributes", "<a " + fill('href="x" ', 100 * KB)],
  ["1 MB quoted href, never closed", '<a href="https://' + fill("x", 1024 * KB)],
  ["1 MB quoted title then href", '<a title="' + fill("x", 1024 * KB) + '" href="https://e.com">t</a>'],
  ["10,000 closed links (400 KB)", '<a href="https://example.com/?a=1&amp;b=2">Link</a>'.repeat(10_000)],
];

export default async function run() {
  console.log("| input | bytes | before (anchor pattern) | after (htmlparser2) |");
  console.log("|---|---:|---:|---:|");
  for (const [name, html] of INPUTS) {
    const after = newTime(html);
    const before = await oldTime(html);
    console.log(`| ${name} | ${html.length.toLocaleString("en")} | ${before} | ${after} |`);
  }
}
