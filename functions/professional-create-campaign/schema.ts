/** The operation's request and answer (docs/decisions.md, "Launching a whole campaign (professional)"). */
export { professionalLaunchRequest, professionalLaunchResult } from '../../shared/schemas/professional-launch.ts';
