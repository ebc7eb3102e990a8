import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'vite'

// Vue renders <wallet-*> tags as custom elements, not as Vue components.
export default defineConfig({
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('wallet-') } } })],
})
