import { CONTROL_TOOLS, createHandOverTool, type HandOvers } from './control';
import { createPageTools, type PageToolDeps } from './page';
import { ToolRegistry } from './registry';
import { createTabTools, type TabToolDeps } from './tabs';
import { createVisionTools, type VisionToolDeps } from './vision';

export type ToolDeps = PageToolDeps & TabToolDeps & VisionToolDeps & { handovers?: HandOvers };

/** Every tool the agent has: reading and acting on pages, tabs and navigation, looking at pages (vision models only), and control. */
export function createToolRegistry(deps: ToolDeps): ToolRegistry {
  const handOver = deps.handovers ? [createHandOverTool(deps.handovers)] : [];
  return new ToolRegistry([...createPageTools(deps), ...createTabTools(deps), ...createVisionTools(deps), ...CONTROL_TOOLS, ...handOver]);
}
