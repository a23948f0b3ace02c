// The benchmark's report: each scenario beside its yardstick, the targets of issue 17, the chart.

/** The series a row belongs to. */
export function seriesLabel(mode) {
  return { handler: 'hand-written handler', memory: 'node:http from memory' }[mode] ?? `cache ${mode}`;
}

/**
 * The yardstick of each scenario of the service: cached reads (200 and 304) against `node:http`
 * serving the same bytes from memory, uncached reads and creates against the hand-written handler.
 */
export function yardstickOf(rows, row) {
  const find = (cache, scenario) => rows.find((other) => other.size === row.size && other.cache === cache && other.scenario === scenario);
  if (row.cache === 'on' && /^event (create|update|trash)/.test(row.scenario)) return find('handler', row.scenario);
  if (row.cache === 'on') return find('memory', row.yardstick ?? row.scenario);
  if (row.cache === 'off') return find('handler', row.scenario);
  return undefined;
}

/** Lines of the side-by-side table: service, yardstick, ratio. */
export function sideBySide(rows) {
  const lines = [
    `${'size'.padStart(8)}  ${'scenario (req/s, p99 ms)'.padEnd(62)}${'service'.padStart(16)}${'yardstick'.padStart(16)}  ratio  yardstick is`,
  ];
  for (const row of rows.filter((candidate) => candidate.requestsPerSecond !== undefined && ['on', 'off'].includes(candidate.cache))) {
    const yardstick = yardstickOf(rows, row);
    const cell = (r) => (r ? `${r.requestsPerSecond} (${r.p99})` : '-');
    const ratio = yardstick ? (row.requestsPerSecond / Math.max(yardstick.requestsPerSecond, 1)).toFixed(2) : '-';
    lines.push(
      `${String(row.size).padStart(8)}  ${`cache ${row.cache}: ${row.scenario}`.padEnd(62)}${cell(row).padStart(16)}${cell(yardstick).padStart(16)}  ${ratio.padStart(5)}  ${yardstick ? seriesLabel(yardstick.cache) : ''}`,
    );
  }
  return lines;
}

const CACHED_READS = [
  'events list (default)',
  'events list (date range + category + venue)',
  'single event by id',
  'event by slug',
  'venues list',
  'categories list',
];

/** The targets of issue 17, checked against this run's rows (only those the run measured). */
export function targets(rows) {
  const find = (size, cache, scenario) => rows.find((row) => row.size === size && row.cache === cache && row.scenario === scenario);
  const share = (row, yardstick) => row.requestsPerSecond / Math.max(yardstick.requestsPerSecond, 1);
  const value = (row, yardstick) =>
    `${row.requestsPerSecond} vs ${yardstick.requestsPerSecond} req/s = ${Math.round(share(row, yardstick) * 100)} %, p99 ${row.p99} ms`;
  const checks = [];
  for (const size of [...new Set(rows.map((row) => row.size))]) {
    for (const scenario of CACHED_READS) {
      const row = find(size, 'on', scenario);
      const yardstick = row && yardstickOf(rows, row);
      if (row && yardstick)
        checks.push({
          name: `${size} events, cache on: ${scenario} ≥ 50 % of node:http from memory, p99 ≤ 15 ms`,
          value: value(row, yardstick),
          met: share(row, yardstick) >= 0.5 && row.p99 <= 15,
        });
    }
    const revalidation = find(size, 'on', 'events list revalidation (304)');
    const hit = find(size, 'on', 'events list (default)');
    const memory = revalidation && yardstickOf(rows, revalidation);
    if (revalidation && memory)
      checks.push({
        name: `${size} events, cache on: revalidation (304) ≥ 50 % of node:http from memory and at least the cached 200`,
        value: `${value(revalidation, memory)}; cached 200: ${hit?.requestsPerSecond ?? '-'} req/s`,
        met: share(revalidation, memory) >= 0.5 && (!hit || revalidation.requestsPerSecond >= hit.requestsPerSecond * 0.95),
      });
    const create = find(size, 'on', 'event create with organizer + category + tag (authenticated)');
    const handler = create && yardstickOf(rows, create);
    if (create && handler)
      checks.push({
        name: `${size} events: create with organizer + category + tag ≥ 50 % of the hand-written handler, p99 ≤ 250 ms`,
        value: `${value(create, handler)} (handler p99 ${handler.p99} ms)`,
        met: share(create, handler) >= 0.5 && create.p99 <= 250,
      });
    for (const scenario of ['event update (title, authenticated)', 'event trash (authenticated)']) {
      const write = find(size, 'on', scenario);
      const writeHandler = write && yardstickOf(rows, write);
      if (write && writeHandler)
        checks.push({
          name: `${size} events: ${scenario.replace(' (authenticated)', '').replace(', authenticated', '')} ≥ 50 % of the hand-written handler, p99 ≤ 250 ms`,
          value: `${value(write, writeHandler)} (handler p99 ${writeHandler.p99} ms)`,
          met: share(write, writeHandler) >= 0.5 && write.p99 <= 250,
        });
    }
    const list = find(size, 'off', 'events list (default)');
    const listHandler = list && yardstickOf(rows, list);
    if (list && listHandler)
      checks.push({
        name: `${size} events, cache off: default list ≥ the hand-written handler`,
        value: value(list, listHandler),
        met: size === 100000 ? share(list, listHandler) >= 1 : null,
      });
    const single = find(size, 'off', 'single event by id');
    const singleHandler = single && yardstickOf(rows, single);
    if (single && singleHandler)
      checks.push({
        name: `${size} events, cache off: single event ≥ 50 % of the hand-written handler`,
        value: value(single, singleHandler),
        met: share(single, singleHandler) >= 0.5,
      });
  }
  // Target 4: at one million events every figure of the service at least 70 % of its 100k value. The
  // same comparison of the ratios to their yardsticks is printed beside it: it takes out how much
  // faster or slower the machine was while the other size was measured.
  const measuredAt = (size) =>
    rows.filter((row) => row.size === size && row.requestsPerSecond !== undefined && ['on', 'off'].includes(row.cache));
  for (const row of measuredAt(1000000)) {
    const before = find(100000, row.cache, row.scenario);
    if (!before) continue;
    const now = yardstickOf(rows, row);
    const then = yardstickOf(rows, before);
    const relative =
      now && then ? ` (against their yardsticks: ${Math.round((share(row, now) / Math.max(share(before, then), 0.0001)) * 100)} %)` : '';
    checks.push({
      name: `1000000 events, cache ${row.cache}: ${row.scenario} ≥ 70 % of its 100000 figure`,
      value: `${row.requestsPerSecond} vs ${before.requestsPerSecond} req/s = ${Math.round(share(row, before) * 100)} %${relative}`,
      met: share(row, before) >= 0.7,
    });
  }
  const failures = rows.filter((row) => row.requestsPerSecond !== undefined && (row.errors > 0 || row.non2xx > 0));
  checks.push({
    name: 'no errors and no unexpected statuses',
    value: failures.length === 0 ? 'none' : failures.map((row) => `${row.size}/${row.cache}/${row.scenario}`).join(', '),
    met: failures.length === 0,
  });
  for (const row of rows.filter((candidate) => candidate.rss !== undefined)) {
    checks.push({
      name: `${row.size} events, cache ${row.cache}: resident memory after the run < 250 MB`,
      value: `${row.rss} MB`,
      met: row.rss < 250,
    });
  }
  return checks;
}

/**
 * A grouped bar chart of requests per second on a logarithmic axis (cached and uncached figures
 * differ by two orders of magnitude): one group per scenario, one bar per size and mode.
 */
export function chart(rows, run) {
  const names = [...new Set(rows.map((row) => row.scenario))];
  const series = [...new Set(rows.map((row) => `${row.size} events, ${seriesLabel(row.cache)}`))];
  const colours = ['#2f6db5', '#e08a1e', '#3a9d5d', '#b5432f', '#7a4fb5', '#5f6b7a', '#1f9aa6', '#c2a01d', '#a64d79'];
  const decades = Math.max(1, Math.ceil(Math.log10(Math.max(...rows.map((row) => row.requestsPerSecond), 10))));
  const barWidth = 14;
  const groupWidth = series.length * barWidth + 40;
  const width = Math.max(80 + names.length * groupWidth, 80 + 3 * 270);
  const plot = 240;
  const legendTop = 30 + plot + 120;
  const height = legendTop + Math.ceil(series.length / 3) * 18 + 10;
  const y = (value) => 30 + plot - (plot * Math.log10(Math.max(value, 1))) / decades;
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="16" font-size="13">Requests per second, logarithmic scale (higher is better), ${run.connections} connections, ${run.duration} s per scenario</text>`,
  ];
  for (let power = 0; power <= decades; power++) {
    parts.push(
      `<line x1="60" x2="${width - 10}" y1="${y(10 ** power)}" y2="${y(10 ** power)}" stroke="#ddd"/><text x="55" y="${y(10 ** power) + 4}" text-anchor="end">${(10 ** power).toLocaleString('en')}</text>`,
    );
  }
  names.forEach((name, group) => {
    const x0 = 70 + group * groupWidth;
    series.forEach((label, index) => {
      const row = rows.find(
        (candidate) => candidate.scenario === name && `${candidate.size} events, ${seriesLabel(candidate.cache)}` === label,
      );
      if (!row) return;
      const top = y(row.requestsPerSecond);
      parts.push(
        `<rect x="${x0 + index * barWidth}" y="${top}" width="${barWidth - 2}" height="${30 + plot - top}" fill="${colours[index % colours.length]}"><title>${escape(label)}: ${row.requestsPerSecond} req/s</title></rect>`,
      );
    });
    parts.push(`<text transform="translate(${x0 + 4},${30 + plot + 12}) rotate(25)">${escape(name)}</text>`);
  });
  series.forEach((label, index) => {
    const x = 70 + (index % 3) * 270;
    const top = legendTop + Math.floor(index / 3) * 18;
    parts.push(
      `<rect x="${x}" y="${top}" width="10" height="10" fill="${colours[index % colours.length]}"/><text x="${x + 14}" y="${top + 9}">${escape(label)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
