import type {} from 'wallet-elements/vue'
import 'wallet-elements/elements'
import { createApp } from 'vue'
import App from './App.vue'

createApp(App).mount('#app')
