/** The newest checkpoint the tasks confirmed as committed (`notified`), and who waits for one. */
export class NotifiedCheckpoints {
  private newest = 0;
  private readonly waiters: Array<{ id: number; resolve: () => void }> = [];

  get last(): number {
    return this.newest;
  }

  reached(id: number): void {
    this.newest = Math.max(this.newest, id);
    for (const w of this.waiters.splice(0)) {
      if (w.id <= this.newest) w.resolve();
      else this.waiters.push(w);
    }
  }

  /** Resolves once checkpoint `id` (or a later one) was notified to the tasks. */
  wait(id: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.newest >= id) resolve();
      else this.waiters.push({ id, resolve });
    });
  }
}
