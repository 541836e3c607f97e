// Which methods each registered path answers, so an unmatched request can be told 405 with Allow
// rather than 404 when only its method is wrong.
import FindMyWay, { type HTTPMethod } from 'find-my-way';

export class RouteIndex {
  private readonly router = FindMyWay();
  private readonly methods = new Set<HTTPMethod>();

  add(method: string | string[], url: string): void {
    for (const m of Array.isArray(method) ? method : [method]) {
      this.router.on(m as HTTPMethod, url, () => {});
      this.methods.add(m as HTTPMethod);
    }
  }

  methodsFor(path: string): string[] {
    return [...this.methods].filter((m) => this.router.find(m, path) !== null).sort();
  }
}
