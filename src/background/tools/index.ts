import { CONTROL_TOOLS } from './control';
import { createPageTools, type PageToolDeps } from './page';
import { ToolRegistry } from './registry';
import { createTabTools, type TabToolDeps } from './tabs';

export type ToolDeps = PageToolDeps & TabToolDeps;

/** Every tool the agent has: reading and acting on pages, tabs and navigation, and control. */
export function createToolRegistry(deps: ToolDeps): ToolRegistry {
  return new ToolRegistry([...createPageTools(deps), ...createTabTools(deps), ...CONTROL_TOOLS]);
}
