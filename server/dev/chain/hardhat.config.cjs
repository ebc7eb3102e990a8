// Hardhat 2 reads only CommonJS configs, and package.json says "type": "module", hence `.cjs`.
// Used by server/dev/chain/index.ts to run `hardhat node`; nothing is compiled, so the paths point
// at a scratch folder in node_modules/.cache to keep the source tree clean.
const path = require('node:path')

const DEV_MNEMONIC = 'test test test test test test test test test test test junk'
const chainId = Number.parseInt(process.env.HARDHAT_CHAIN_ID ?? '31337', 10)
if (!Number.isSafeInteger(chainId) || chainId <= 0) {
  throw new Error(`HARDHAT_CHAIN_ID must be a positive integer, got "${process.env.HARDHAT_CHAIN_ID}"`)
}

const scratch = path.resolve(__dirname, '../../../node_modules/.cache/wallet-elements-hardhat')

/** @type {import('hardhat/config').HardhatUserConfig} */
module.exports = {
  defaultNetwork: 'hardhat',
  networks: {
    hardhat: {
      chainId,
      accounts: {
        mnemonic: DEV_MNEMONIC,
        path: "m/44'/60'/0'/0",
        count: 10,
        // 10000 ETH in wei
        accountsBalance: '10000000000000000000000',
      },
      mining: { auto: true, interval: 0 },
    },
  },
  paths: {
    root: __dirname,
    sources: path.join(scratch, 'contracts'),
    tests: path.join(scratch, 'test'),
    cache: path.join(scratch, 'cache'),
    artifacts: path.join(scratch, 'artifacts'),
  },
}
