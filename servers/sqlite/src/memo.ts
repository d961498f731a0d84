/**
 * The insights memo behind `memo://insights` (as in the reference server): insights appended by
 * `append_insight`, rendered as a plain-text memo. Kept in memory for the server's lifetime, bounded.
 */

/** Most insights kept; appending beyond it is refused. */
export const MAX_INSIGHTS = 500;
/** Longest insight, in characters. */
export const MAX_INSIGHT_CHARS = 4000;

export class Memo {
  readonly #insights: string[] = [];
  readonly #listeners = new Set<() => void>();

  get count(): number {
    return this.#insights.length;
  }

  /** Appends one insight and tells every listener; returns the new count. Throws when full. */
  append(insight: string): number {
    if (this.#insights.length >= MAX_INSIGHTS) {
      throw new Error(`the memo is full (${MAX_INSIGHTS} insights); this server keeps no more`);
    }
    this.#insights.push(insight.trim());
    for (const listener of this.#listeners) listener();
    return this.#insights.length;
  }

  /** Calls `listener` after every append; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The memo text (the reference server's layout). */
  render(): string {
    if (this.#insights.length === 0) return 'No business insights have been discovered yet.';
    const lines = [
      '📊 Business Intelligence Memo 📊',
      '',
      'Key Insights Discovered:',
      '',
      ...this.#insights.map((i) => `- ${i}`),
    ];
    if (this.#insights.length > 1) {
      lines.push('', 'Summary:', `Analysis has revealed ${this.#insights.length} key business insights.`);
    }
    return lines.join('\n');
  }
}
