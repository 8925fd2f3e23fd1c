/** A fixed-capacity FIFO: logs and traces must never grow without bound. */
export class RingBuffer<T> {
  private items: T[] = [];
  private start = 0;

  constructor(readonly capacity: number) {
    if (capacity < 1) throw new RangeError('capacity must be at least 1');
  }

  /** Append, dropping the oldest item once full. */
  push(item: T): void {
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
  }

  /** Items oldest first. */
  toArray(): T[] {
    return this.items.slice(this.start).concat(this.items.slice(0, this.start));
  }

  get size(): number {
    return this.items.length;
  }

  clear(): void {
    this.items = [];
    this.start = 0;
  }
}
