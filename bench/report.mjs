// The benchmark's report: each scenario of the service beside its yardsticks of the same run, the
// lists through an edition beside the same lists through the default path, the targets (issue 44,
// item 5; issue 48) met or missed with their ratios, and the chart (docs/bench.svg).

/** What a row measured: the service in one of its settings, or a yardstick. */
export function labelOf(row) {
  if (row.target === 'service') return `service (${row.settings}${row.cache === 'off' ? ', cache off' : ''})`;
  return { memory: 'node:http from memory', floor: 'framework floor', handler: 'hand-written handler' }[row.target];
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * The rows measured, one per size, target, scenario and settings: a scenario measured in rounds
 * (a cached read beside the floor) as the medians of its rounds, with the rounds kept in `rounds`.
 * Rows of a pair's rounds are compared by `pairs` alone.
 */
function measured(rows) {
  const groups = new Map();
  for (const row of rows.filter((candidate) => candidate.requestsPerSecond !== undefined && candidate.pair === undefined)) {
    const key = JSON.stringify([row.size, row.target, row.scenario, row.settings, row.cache]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((group) => {
    if (group.length === 1 && group[0].round === undefined) return group[0];
    const of = (field) => Math.round(median(group.map((row) => row[field])));
    return { ...group[0], round: undefined, requestsPerSecond: of('requestsPerSecond'), p50: of('p50'), p99: of('p99'), rounds: group };
  });
}
const find = (rows, size, target, scenario, settings) =>
  measured(rows).find(
    (row) =>
      row.size === size && row.target === target && row.scenario === scenario && (settings === undefined || row.settings === settings),
  );
/** The service's rate over the yardstick's; of two rows measured in the same rounds, the median of the rounds' ratios. */
const ratio = (row, yardstick) => {
  const rounds = (row.rounds ?? [])
    .map((own) => [own, yardstick.rounds?.find((other) => other.round === own.round)])
    .filter(([, other]) => other !== undefined);
  if (rounds.length > 0) return median(rounds.map(([own, other]) => own.requestsPerSecond / Math.max(other.requestsPerSecond, 1)));
  return row.requestsPerSecond / Math.max(yardstick.requestsPerSecond, 1);
};
const number = (value) => value.toLocaleString('en');

/** Lines of the side-by-side table: each service row with the yardsticks of its scenario and the ratios. */
export function sideBySide(rows) {
  const cell = (row) => (row ? `${number(row.requestsPerSecond)} (${row.p99})` : '-');
  // a yardstick that answered nothing within the run has no ratio to give
  const share = (row, yardstick) => (!yardstick ? '-' : yardstick.requestsPerSecond > 0 ? ratio(row, yardstick).toFixed(2) : 'none');
  const lines = [
    'req/s (p99 ms); ratios are the service over each yardstick, measured in the same run',
    `${'size'.padStart(8)}  ${'scenario'.padEnd(40)}${'settings'.padEnd(12)}${'service'.padStart(14)}${'floor'.padStart(14)}${'÷floor'.padStart(8)}${'node:http'.padStart(14)}${'÷node'.padStart(7)}${'handler'.padStart(14)}${'÷handler'.padStart(9)}`,
  ];
  for (const row of measured(rows).filter((candidate) => candidate.target === 'service')) {
    const floor = find(rows, row.size, 'floor', row.scenario);
    const memory = find(rows, row.size, 'memory', row.scenario);
    const handler = find(rows, row.size, 'handler', row.scenario);
    lines.push(
      `${String(row.size).padStart(8)}  ${row.scenario.padEnd(40)}${row.settings.padEnd(12)}${cell(row).padStart(14)}${cell(floor).padStart(14)}${share(row, floor).padStart(8)}${cell(memory).padStart(14)}${share(row, memory).padStart(7)}${cell(handler).padStart(14)}${share(row, handler).padStart(9)}`,
    );
  }
  return lines;
}

/** How much slower a list through an edition may be than the same list through the default path (issue 48). */
const EDITION_RATIO = 1.3;

/**
 * The pairs a run measured (a list through an edition, and its twin: the same list through the
 * default path, measured in turn with it): per size, settings and pair, the median rate of each
 * side and the median of the rounds' ratios (the twin's rate over the edition's; 1.3 = 30 % slower).
 */
export function pairs(rows) {
  const paired = rows.filter((row) => row.pair !== undefined && row.requestsPerSecond !== undefined);
  const keys = [...new Set(paired.map((row) => JSON.stringify([row.size, row.settings, row.pair])))];
  return keys.map((key) => {
    const [size, settings, pair] = JSON.parse(key);
    const own = paired.filter((row) => row.size === size && row.settings === settings && row.pair === pair);
    const edition = own.filter((row) => row.scenario === pair);
    const twin = own.filter((row) => row.scenario !== pair);
    const ratios = edition
      .map((row) => [row, twin.find((other) => other.round === row.round)])
      .filter(([, other]) => other !== undefined)
      .map(([row, other]) => other.requestsPerSecond / Math.max(row.requestsPerSecond, 1));
    return {
      size,
      settings,
      scenario: pair,
      twin: twin[0]?.scenario ?? '-',
      edition: Math.round(median(edition.map((row) => row.requestsPerSecond))),
      default: Math.round(median(twin.map((row) => row.requestsPerSecond))),
      ratio: ratios.length > 0 ? median(ratios) : null,
      rounds: ratios.length,
    };
  });
}

/** Lines of the pairs' table. */
export function pairLines(rows) {
  const found = pairs(rows);
  if (found.length === 0) return [];
  const lines = [
    'lists through an edition beside the same lists through the default path (same service, in turn; medians of the rounds)',
    `${'size'.padStart(8)}  ${'scenario'.padEnd(48)}${'settings'.padEnd(12)}${'edition'.padStart(10)}${'default'.padStart(10)}${'ratio'.padStart(8)}${'rounds'.padStart(8)}`,
  ];
  for (const pair of found)
    lines.push(
      `${String(pair.size).padStart(8)}  ${pair.scenario.padEnd(48)}${pair.settings.padEnd(12)}${number(pair.edition).padStart(10)}${number(pair.default).padStart(10)}${(pair.ratio === null ? '-' : pair.ratio.toFixed(2)).padStart(8)}${String(pair.rounds).padStart(8)}`,
    );
  return lines;
}

/**
 * The targets, at 100,000 events; at 1,000,000 within 30 % of them (ratios × 0.7, latency and
 * memory × 1.3). At other sizes the same comparisons are printed for information.
 */
const TARGETS = [
  { scenario: 'cached list', against: 'floor', share: 0.8, p99: 20 },
  { scenario: 'cached single event', against: 'floor', share: 0.8, p99: 20 },
  { scenario: '304 revalidation of the list', againstScenario: 'cached list', share: 1 },
  { scenario: 'create with organizer + category + tag', against: 'handler', share: 0.4, p99: 250 },
  { scenario: 'title update', against: 'handler', share: 0.5 },
];
const RSS_MB = 250;
const AGAINST = { floor: 'the framework floor', handler: 'the hand-written handler' };

/** The targets checked against this run's rows (those the run measured): { name, value, met (true, false or null: no target at this size) }. */
export function targets(rows) {
  const checks = [];
  const sizes = [...new Set(rows.map((row) => row.size))];
  for (const size of sizes) {
    const slack = size === 1000000 ? 0.3 : 0;
    const binding = size === 100000 || size === 1000000;
    const at = size === 1000000 ? ' (within 30 %)' : binding ? '' : ' (information)';
    for (const settings of [...new Set(rows.filter((row) => row.size === size && row.settings).map((row) => row.settings))]) {
      for (const target of TARGETS) {
        const row = find(rows, size, 'service', target.scenario, settings);
        const yardstick = target.against
          ? find(rows, size, target.against, target.scenario)
          : find(rows, size, 'service', target.againstScenario, settings);
        if (!row || !yardstick) continue;
        const share = Number((target.share * (1 - slack)).toFixed(2));
        const p99 = target.p99 && Math.round(target.p99 * (1 + slack));
        const threshold = target.against
          ? `${share} of ${AGAINST[target.against]}`
          : `${share === 1 ? '' : `${share} of `}the service's ${target.againstScenario} rate`;
        checks.push({
          name: `${size} events, ${settings} settings${at}: ${target.scenario} ≥ ${threshold}${p99 ? `, p99 ≤ ${p99} ms` : ''}`,
          value: `${number(row.requestsPerSecond)} vs ${number(yardstick.requestsPerSecond)} req/s = ${ratio(row, yardstick).toFixed(2)}, p99 ${row.p99} ms${roundsOf(row, yardstick)}`,
          met: binding ? ratio(row, yardstick) >= share && (!p99 || row.p99 <= p99) : null,
        });
      }
      for (const row of rows.filter(
        (candidate) => candidate.size === size && candidate.settings === settings && candidate.rss !== undefined,
      )) {
        const limit = Math.round(RSS_MB * (1 + slack));
        checks.push({
          name: `${size} events, ${settings} settings${at}: resident memory of the service${row.cache === 'off' ? ' (cache off)' : ''} after the run < ${limit} MB`,
          value: `${row.rss} MB`,
          met: binding ? row.rss < limit : null,
        });
      }
    }
  }
  for (const pair of pairs(rows)) {
    const slack = pair.size === 1000000 ? 0.3 : 0;
    const binding = pair.size === 100000 || pair.size === 1000000;
    const at = pair.size === 1000000 ? ' (within 30 %)' : binding ? '' : ' (information)';
    const limit = Number((EDITION_RATIO * (1 + slack)).toFixed(2));
    checks.push({
      name: `${pair.size} events, ${pair.settings} settings${at}: ${pair.scenario} within ${limit}× of ${pair.twin} (the default path)`,
      value: `${number(pair.default)} vs ${number(pair.edition)} req/s, ${pair.ratio === null ? 'no round' : `${pair.ratio.toFixed(2)}×`} (median of ${pair.rounds} rounds)`,
      met: binding ? pair.ratio !== null && pair.ratio <= limit : null,
    });
  }
  const failures = rows.filter((row) => row.skipped || row.errors > 0 || row.non2xx > 0);
  checks.push({
    name: 'every measurement ran, with no errors and no unexpected statuses',
    value:
      failures.length === 0
        ? 'yes'
        : failures
            .map(
              (row) =>
                `${row.size}/${labelOf(row)}/${row.scenario}: ${row.skipped ? `not measured (${row.skipped})` : `${row.non2xx} unexpected, ${row.errors} errors`}`,
            )
            .join('; '),
    met: failures.length === 0,
  });
  return checks;
}

/** How a target's figures were taken, when in rounds: medians of them. */
function roundsOf(row, yardstick) {
  const paired = (row.rounds ?? []).filter((own) => yardstick.rounds?.some((other) => other.round === own.round)).length;
  if (paired > 0) return ` (medians of ${paired} rounds in turn)`;
  return row.rounds ? ` (medians of ${row.rounds.length} rounds)` : '';
}

/** The check lines as the bench prints them. */
export function checkLines(checks) {
  return checks.map((check) => `  ${check.met === null ? 'info   ' : check.met ? 'met    ' : 'MISSED '}  ${check.name}: ${check.value}`);
}

/**
 * A grouped bar chart of requests per second on a logarithmic axis (cached and uncached figures
 * differ by two orders of magnitude): one group per scenario, one bar per size and what was measured.
 */
export function chart(rows, run) {
  rows = measured(rows);
  const names = [...new Set(rows.map((row) => row.scenario))];
  const series = [...new Set(rows.map((row) => `${row.size} events, ${labelOf(row)}`))];
  // one colour per thing measured, lighter for each further size
  const labels = [...new Set(rows.map(labelOf))];
  const sizes = [...new Set(rows.map((row) => row.size))];
  const fill = (row) =>
    `fill="${colours[labels.indexOf(labelOf(row)) % colours.length]}" fill-opacity="${[1, 0.65, 0.35][sizes.indexOf(row.size) % 3]}"`;
  const colours = ['#2f6db5', '#e08a1e', '#3a9d5d', '#b5432f', '#7a4fb5', '#5f6b7a', '#1f9aa6', '#c2a01d', '#a64d79'];
  const decades = Math.max(1, Math.ceil(Math.log10(Math.max(...rows.map((row) => row.requestsPerSecond), 10))));
  const barWidth = 10;
  const groupWidth = series.length * barWidth + 30;
  const width = Math.max(80 + names.length * groupWidth, 80 + 3 * 300);
  const plot = 240;
  const legendTop = 30 + plot + 130;
  const height = legendTop + Math.ceil(series.length / 3) * 18 + 10;
  const y = (value) => 30 + plot - (plot * Math.log10(Math.max(value, 1))) / decades;
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="16" font-size="13">Requests per second, logarithmic scale (higher is better), ${run.connections} connections, ${run.duration} s per measurement</text>`,
  ];
  for (let power = 0; power <= decades; power++) {
    parts.push(
      `<line x1="60" x2="${width - 10}" y1="${y(10 ** power)}" y2="${y(10 ** power)}" stroke="#ddd"/><text x="55" y="${y(10 ** power) + 4}" text-anchor="end">${number(10 ** power)}</text>`,
    );
  }
  names.forEach((name, group) => {
    const x0 = 70 + group * groupWidth;
    series.forEach((label, index) => {
      const row = rows.find((candidate) => candidate.scenario === name && `${candidate.size} events, ${labelOf(candidate)}` === label);
      if (!row) return;
      const top = y(row.requestsPerSecond);
      parts.push(
        `<rect x="${x0 + index * barWidth}" y="${top}" width="${barWidth - 2}" height="${30 + plot - top}" ${fill(row)}><title>${escape(label)}: ${row.requestsPerSecond} req/s</title></rect>`,
      );
    });
    parts.push(`<text transform="translate(${x0 + 4},${30 + plot + 12}) rotate(25)">${escape(name)}</text>`);
  });
  series.forEach((label, index) => {
    const x = 70 + (index % 3) * 300;
    const top = legendTop + Math.floor(index / 3) * 18;
    const row = rows.find((candidate) => `${candidate.size} events, ${labelOf(candidate)}` === label);
    parts.push(`<rect x="${x}" y="${top}" width="10" height="10" ${fill(row)}/><text x="${x + 14}" y="${top + 9}">${escape(label)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
