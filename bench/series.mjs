// Adds recurring series to a calendar through the API, for measuring lists with series among the
// events (docs/PERFORMANCE.md, "One million events, with and without 3,000 recurring series").
//   node bench/series.mjs --base http://127.0.0.1:3000 --auth login:app-password [--count 3000] [--clients 4]
// Each series: weekly, monthly on the second Tuesday, or every third day, ten occurrences, its first
// start spread over the coming year, in one of four time zones.
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    auth: { type: 'string' },
    count: { type: 'string', default: '3000' },
    clients: { type: 'string', default: '4' },
  },
});
if (!args.base || !args.auth) {
  console.error('usage: node bench/series.mjs --base URL --auth login:app-password [--count N] [--clients N]');
  process.exit(1);
}
const rules = ['RRULE:FREQ=WEEKLY;COUNT=10', 'RRULE:FREQ=MONTHLY;BYDAY=2TU;COUNT=10', 'RRULE:FREQ=DAILY;INTERVAL=3;COUNT=10'];
const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC'];
const count = Number(args.count);
const authorization = `Basic ${Buffer.from(args.auth).toString('base64')}`;
const url = `${args.base.replace(/\/$/, '')}/wp-json/tribe/events/v1/events`;
const pad = (value) => String(value).padStart(2, '0');
const wall = (date) =>
  `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:00`;

let next = 0;
const times = [];
let failures = 0;
async function client() {
  while (next < count) {
    const index = next++;
    const start = new Date(
      Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1 + (index % 365), 9 + (index % 9)),
    );
    const end = new Date(start.getTime() + 90 * 60 * 1000);
    const began = performance.now();
    const answer = await fetch(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: `Series ${index}`,
        start_date: wall(start),
        end_date: wall(end),
        timezone: zones[index % zones.length],
        recurrence: [rules[index % rules.length]],
      }),
    });
    times.push(performance.now() - began);
    if (answer.status !== 201) {
      failures++;
      if (failures <= 5) console.error(`series ${index}: ${answer.status} ${(await answer.text()).slice(0, 200)}`);
    } else await answer.arrayBuffer();
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: Number(args.clients) }, client));
times.sort((a, b) => a - b);
const at = (share) => Math.round(times[Math.min(times.length - 1, Math.floor(share * times.length))]);
console.log(
  `${count - failures} series created in ${((performance.now() - started) / 1000).toFixed(1)} s with ${args.clients} clients (p50 ${at(0.5)} ms, p99 ${at(0.99)} ms per create), ${failures} failed`,
);
if (failures > 0) process.exit(1);
