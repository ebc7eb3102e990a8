// Preloaded into the `hardhat node` child (node --require) by index.ts: the child exits when its
// parent goes away, even when the parent is killed with SIGKILL and cannot stop it. The parent holds
// the write end of the child's stdin pipe; the kernel closes it when the parent dies, and we read EOF.
'use strict'
const quit = () => process.exit(0)
process.stdin.on('end', quit)
process.stdin.on('close', quit)
process.stdin.on('error', quit)
process.stdin.resume()
