// The globals web-test-runner's mocha provides in the browser.
declare function describe(name: string, body: (this: { timeout(ms: number): void }) => void): void
declare function it(name: string, body: (this: { timeout(ms: number): void }) => unknown): void
declare function before(body: () => unknown): void
declare function after(body: () => unknown): void
declare function beforeEach(body: () => unknown): void
declare function afterEach(body: () => unknown): void
