import { CONTROL_TOOLS } from './control';
import { createPageTools, type PageToolDeps } from './page';
import { ToolRegistry } from './registry';
import { createTabTools, type TabToolDeps } from './tabs';
import { createVisionTools, type VisionToolDeps } from './vision';

export type ToolDeps = PageToolDeps & TabToolDeps & VisionToolDeps;

/** Every tool the agent has: reading and acting on pages, tabs and navigation, looking at pages (vision models only), and control. */
export function createToolRegistry(deps: ToolDeps): ToolRegistry {
  return new ToolRegistry([...createPageTools(deps), ...createTabTools(deps), ...createVisionTools(deps), ...CONTROL_TOOLS]);
}
