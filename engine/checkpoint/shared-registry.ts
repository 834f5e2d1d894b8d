/**
 * Reference counts of shared (incremental) state files. A shared file is deleted only when no
 * retained checkpoint references it any more. The registry is never persisted: it is rebuilt from
 * the retained checkpoints' metadata when the storage opens, so a crash at any moment cannot leave
 * it wrong (Flink's SharedStateRegistry, minus the persistence problem).
 */
export class SharedStateRegistry {
  /** shared path -> ids of retained checkpoints referencing it */
  private readonly refs = new Map<string, Set<number>>();

  register(checkpointId: number, sharedPaths: Iterable<string>): void {
    for (const path of sharedPaths) {
      let users = this.refs.get(path);
      if (!users) this.refs.set(path, (users = new Set()));
      users.add(checkpointId);
    }
  }

  /** Drops a checkpoint's references; returns the paths nobody references any more. */
  unregister(checkpointId: number, sharedPaths: Iterable<string>): string[] {
    const unreferenced: string[] = [];
    for (const path of sharedPaths) {
      const users = this.refs.get(path);
      if (!users) {
        unreferenced.push(path);
        continue;
      }
      users.delete(checkpointId);
      if (users.size === 0) {
        this.refs.delete(path);
        unreferenced.push(path);
      }
    }
    return [...new Set(unreferenced)];
  }

  isReferenced(path: string): boolean {
    return (this.refs.get(path)?.size ?? 0) > 0;
  }

  referenceCount(path: string): number {
    return this.refs.get(path)?.size ?? 0;
  }

  clear(): void {
    this.refs.clear();
  }
}
