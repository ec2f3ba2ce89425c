/**
 * A small Prometheus registry (text exposition format 0.0.4): counters, gauges and histograms with
 * labels, and the encoder. The control plane's `/metrics` and the agent's node exporter both use it
 * (docs/decisions.md "Metrics"); no client library: the format is a few lines of text per series.
 */

export type Labels = Readonly<Record<string, string>>;

/** The content type of the text format, version 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const NAME_RE = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_RE = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Seconds: from 5 ms to 10 s, the usual spread of an API call. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface Metric {
  readonly name: string;
  encode(): string;
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** A sample's value: integers as they are, `+Inf`, `-Inf` and `NaN` as the format spells them. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function labelText(labels: Labels): string {
  const keys = Object.keys(labels);
  if (keys.length === 0) return '';
  return `{${keys.map((k) => `${k}="${escapeLabelValue(labels[k] ?? '')}"`).join(',')}}`;
}

/** One key per label set, whatever the order its labels were given in. */
function keyOf(labelNames: readonly string[], labels: Labels): string {
  for (const given of Object.keys(labels)) {
    if (!labelNames.includes(given)) throw new Error(`unknown label ${given}`);
  }
  return JSON.stringify(labelNames.map((n) => labels[n] ?? ''));
}

function ordered(labelNames: readonly string[], labels: Labels): Labels {
  return Object.fromEntries(labelNames.map((n) => [n, labels[n] ?? '']));
}

abstract class Family<T> implements Metric {
  protected readonly series = new Map<string, { labels: Labels; value: T }>();

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly type: 'counter' | 'gauge' | 'histogram',
    protected readonly labelNames: readonly string[],
  ) {
    if (!NAME_RE.test(name)) throw new Error(`bad metric name ${name}`);
    for (const label of labelNames) {
      if (!LABEL_RE.test(label) || label.startsWith('__') || label === 'le') throw new Error(`bad label ${label}`);
    }
  }

  protected entry(labels: Labels, initial: () => T): { labels: Labels; value: T } {
    const key = keyOf(this.labelNames, labels);
    let found = this.series.get(key);
    if (!found) {
      found = { labels: ordered(this.labelNames, labels), value: initial() };
      this.series.set(key, found);
    }
    return found;
  }

  protected abstract lines(): string[];

  encode(): string {
    return [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`, ...this.lines()].join(
      '\n',
    );
  }
}

export class Counter extends Family<number> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'counter', labelNames);
  }

  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) throw new Error('a counter only goes up');
    this.entry(labels, () => 0).value += by;
  }

  get(labels: Labels = {}): number {
    return this.series.get(keyOf(this.labelNames, labels))?.value ?? 0;
  }

  protected lines(): string[] {
    return [...this.series.values()].map((s) => `${this.name}${labelText(s.labels)} ${formatValue(s.value)}`);
  }
}

export class Gauge extends Family<number> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, 'gauge', labelNames);
  }

  set(labels: Labels, value: number): void {
    this.entry(labels, () => 0).value = value;
  }

  get(labels: Labels = {}): number {
    return this.series.get(keyOf(this.labelNames, labels))?.value ?? 0;
  }

  protected lines(): string[] {
    return [...this.series.values()].map((s) => `${this.name}${labelText(s.labels)} ${formatValue(s.value)}`);
  }
}

interface HistogramValue {
  readonly counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends Family<HistogramValue> {
  private readonly buckets: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
    super(name, help, 'histogram', labelNames);
    this.buckets = [...buckets].sort((a, b) => a - b);
  }

  observe(labels: Labels, value: number): void {
    const entry = this.entry(labels, () => ({ counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    this.buckets.forEach((bound, i) => {
      if (value <= bound) entry.value.counts[i] = (entry.value.counts[i] ?? 0) + 1;
    });
    entry.value.sum += value;
    entry.value.count += 1;
  }

  protected lines(): string[] {
    const out: string[] = [];
    for (const { labels, value } of this.series.values()) {
      this.buckets.forEach((bound, i) => {
        out.push(`${this.name}_bucket${labelText({ ...labels, le: formatValue(bound) })} ${value.counts[i] ?? 0}`);
      });
      out.push(`${this.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${value.count}`);
      out.push(`${this.name}_sum${labelText(labels)} ${formatValue(value.sum)}`);
      out.push(`${this.name}_count${labelText(labels)} ${value.count}`);
    }
    return out;
  }
}

/** The metrics of one process, and collectors that set gauges just before each scrape. */
export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();
  private readonly collectors: Array<() => Promise<void> | void> = [];
  private readonly collectErrors = this.counter(
    'rampart_metrics_collect_errors_total',
    'Collectors that failed while answering a scrape (their gauges keep the last value)',
  );

  private add<M extends Metric>(metric: M): M {
    if (this.metrics.has(metric.name)) throw new Error(`metric ${metric.name} registered twice`);
    this.metrics.set(metric.name, metric);
    return metric;
  }

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(new Counter(name, help, labelNames));
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.add(new Gauge(name, help, labelNames));
  }

  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, labelNames, buckets));
  }

  /** Runs before each scrape: reads what is cheaper to ask than to count (queue depths, lags). */
  collect(collector: () => Promise<void> | void): void {
    this.collectors.push(collector);
  }

  /**
   * The text format: each family's HELP and TYPE, then its samples; ends with a newline. A collector
   * that fails (its store is down) leaves its gauges as they were and counts in
   * `rampart_metrics_collect_errors_total`: a scrape still answers, and says that part is stale.
   */
  async encode(): Promise<string> {
    for (const collector of this.collectors) {
      try {
        await collector();
      } catch {
        this.collectErrors.inc();
      }
    }
    return `${[...this.metrics.values()].map((m) => m.encode()).join('\n')}\n`;
  }
}

/** The value of one sample (`name{labels}` exactly as written) in a scrape's text, or undefined. */
export function sampleValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
