/**
 * Which models see the vision tools: only those that take images. A model without vision is
 * neither offered `look` nor able to call it (the registry it is given has no such tool), so it
 * never causes a screenshot and never receives one.
 */
import type { ModelCapabilities } from '../llm/capabilities';
import type { ToolRegistry } from '../tools/registry';
import { VISION_TOOLS } from '../tools/vision';

export function offeredTools(tools: ToolRegistry, caps: Pick<ModelCapabilities, 'vision'>): ToolRegistry {
  return caps.vision === true ? tools : tools.without(VISION_TOOLS);
}
