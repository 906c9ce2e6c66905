import type { ESLint, Rule } from "eslint";

export const ROUTE_ADAPTERS: Set<string>;
export const ACTION_ADAPTERS: Set<string>;
export const TRANSACTION_OPENERS: Set<string>;
export const adaptersOnly: Rule.RuleModule;
export const transactionsInFlows: Rule.RuleModule;
declare const plugin: ESLint.Plugin;
export default plugin;
