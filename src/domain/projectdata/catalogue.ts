// The built-in entity sets of Project's reporting feed (ReportingData), written compactly:
// `Name:Type` pairs, where Type is the Edm type without its `Edm.` prefix. Custom
// (enterprise) fields are added per site at run time, after the built-in properties.
//
// SOURCES
// - Microsoft's ProjectData reference (Project Server 2013 / Project Online), one page per
//   EntityType, Association and EntitySet: learn.microsoft.com/previous-versions/office/project-odata/
//   (jj163015 index, jj163598 Task, jj163049 Project, jj163529 Schema ReportingData,
//   jj163018 EntityContainer), markdown source in github.com/MicrosoftDocs/office-developer-client-docs
//   (docs/project/entitytype-*.md, association-*.md; removed from HEAD by commit 4bf8d731c, read at 355fd3c2).
//   Entity type names, keys (and key order), property names/types, navigation names and
//   association names/roles/multiplicities come from there.
// - "ProjectData - Project OData service reference" (same repository, projectdataproject-odata-service-reference.md):
//   default page sizes per set, Online and on-premises (the table below).
// - "Querying OData feeds for Project reporting data": `Tasks(ProjectId=…,TaskId=…)` edit links,
//   custom fields named without spaces, appended to the entity type.
// - A Project Online verbose capture (a public repository, practicarcloud PWA, 2015):
//   `Assignments(AssignmentId=guid'…',ProjectId=guid'…')`, key properties written first, the
//   rest in case-insensitive name order, enterprise custom fields (`Health_T`, `RBS_R`, …) last.
//
// INFERRED (the reference does not say; see docs/compatibility.md)
// - Every non-key property is nullable, although the reference marks some (TaskBudgetCost,
//   AssignmentRegularWork, …) Nullable="false": tenant files omit fields, and the emulator
//   writes those as null.
// - Join pairs (`on`) of every navigation: the reference names associations, not columns.
// - Navigations that only a link table can serve are left out: Projects.Dependencies,
//   Tasks.Issues/Risks, Issues.Tasks/RelatedRisks/SubIssues, Risks.Tasks/RelatedIssues/SubRisks,
//   Deliverables.DependentProjects/DependentTasks/ParentProjects/ParentTasks, and
//   TimesheetLineActualDataSet.LastChangedByResource (no resource id among its properties).
// - Prioritizations.ModifiedByResource: the association is listed, the entity page omits it.
// - EngagementsTimephasedDataSet (Project Online only, not in the 2013 reference): type name
//   `EngagementsTimephasedData`, key (EngagementId, TimeByDay), property names from a third-party
//   reconstruction of the feed, types by analogy; no navigations.
// - Kept though the reference does not list them: Task.TaskBaselineStartDate/TaskBaselineFinishDate
//   (issue #4's fixture), Project.ProjectLastPublishedDate and TaskBaseline.TaskBaselineModifiedDate
//   (wire reference §11), TimeSet's FiscalPeriodId/FiscalPeriodModifiedDate/FiscalPeriodStart/FiscalPeriodYear.
// - Left out as custom fields (they are localized enterprise fields, `Integridade_T` in a
//   Portuguese tenant): Task Health/FlagStatus, Assignment CostType_R/Health_T/RBS_R/
//   ResourceDepartments_R, Resource CostType/RBS/ResourceDepartments, Project ProjectDepartments.
// - Reference typos corrected: PrioritizationDriver BusinessDriveName → BusinessDriverName;
//   AssignmentTimephasedData AssignmentCost Int32 and AssignmentMaterialActualWork DateTime → Decimal;
//   TaskTimephasedData TaskActualCost DateTime → Decimal; ResourceTimephasedData TimeByDay → DateTime.
// - Entity-set order after Projects and ProjectBaselines (the two the service document shows first).

import type { EdmType, PdEntitySet, PdNavigation, PdProperty } from './model.ts';

/** Default page sizes per set, as the reference documents them: [Project Online, on-premises]. */
const PAGE_SIZES: Record<string, [online: number, onPremises: number]> = {
  AssignmentBaselines: [300, 100], AssignmentBaselineTimephasedDataSet: [2000, 200], Assignments: [1000, 100],
  AssignmentTimephasedDataSet: [2000, 100], BusinessDriverDepartments: [200, 200], BusinessDrivers: [200, 200],
  CostConstraintScenarios: [1000, 200], CostScenarioProjects: [2000, 200], Deliverables: [1000, 200],
  // On-premises has no engagements (Project Server 2013); 200 there is INFERRED.
  EngagementsTimephasedDataSet: [200, 200], Issues: [1000, 200], IssueTaskAssociations: [2000, 100],
  PortfolioAnalyses: [200, 200], PortfolioAnalysisProjects: [2000, 200], PrioritizationDriverRelations: [1000, 200],
  PrioritizationDrivers: [1000, 200], Prioritizations: [200, 200], ProjectBaselines: [200, 200], Projects: [300, 100],
  ProjectWorkflowStageDataSet: [2000, 200], ResourceConstraintScenarios: [1000, 200], Resources: [1000, 100],
  ResourceScenarioProjects: [2000, 200], ResourceTimephasedDataSet: [2000, 200], Risks: [1000, 200],
  RiskTaskAssociations: [2000, 100], TaskBaselines: [300, 100], TaskBaselineTimephasedDataSet: [2000, 200],
  Tasks: [300, 100], TaskTimephasedDataSet: [2000, 100], TimeSet: [2000, 100], TimesheetClasses: [1000, 200],
  TimesheetLineActualDataSet: [2000, 100], TimesheetLines: [1000, 100], TimesheetPeriods: [1000, 200], Timesheets: [1000, 100],
};

/** Project Server's on-premises default page size of a set (the catalogue's default is Project Online's). */
export function onPremisesPageSize(setName: string): number | undefined {
  return PAGE_SIZES[setName]?.[1];
}

function props(key: string[], spec: string): PdProperty[] {
  return spec.trim().split(/\s+/).map((pair) => {
    const [name, type] = pair.split(':');
    if (!name || !type) throw new Error(`bad catalogue entry ${pair}`);
    return { name, type: `Edm.${type}` as EdmType, nullable: !key.includes(name) };
  });
}

/** Association name of each navigation, by `EntityType/Navigation` (for `$metadata`). */
const ASSOCIATIONS = new Map<string, string>();

/**
 * A navigation: `on` lists join pairs, `ProjectId TaskId` (same name both sides) or
 * `CreatedByResourceId=ResourceId` (source=target); `association` is the reference's name.
 */
interface NavSpec { nav: PdNavigation; association: string }
function nav(many: boolean, name: string, target: string, on: string, association: string): NavSpec {
  const pairs = on.split(/\s+/).map((p) => {
    const [source, targetProp = source] = p.split('=');
    return [source!, targetProp!] as [string, string];
  });
  return { nav: { name, target, many, on: pairs }, association };
}
const many = (name: string, target: string, on: string, association: string) => nav(true, name, target, on, association);
const one = (name: string, target: string, on: string, association: string) => nav(false, name, target, on, association);

function set(name: string, entityType: string, key: string[], spec: string, navs: NavSpec[] = []): PdEntitySet {
  const properties = props(key, spec);
  for (const k of key) if (!properties.some((p) => p.name === k)) throw new Error(`${name}: key ${k} is not a property`);
  for (const { nav: n, association } of navs) ASSOCIATIONS.set(`${entityType}/${n.name}`, association);
  const defaultPageSize = PAGE_SIZES[name]?.[0];
  if (defaultPageSize === undefined) throw new Error(`${name}: no page size`);
  return { name, entityType, key, properties, navigations: navs.map((n) => n.nav), defaultPageSize };
}

/** The association a built-in navigation belongs to, as `$metadata` names it. */
export function associationName(entityType: string, navigation: string): string | undefined {
  return ASSOCIATIONS.get(`${entityType}/${navigation}`);
}

// Resource-valued navigations shared by the portfolio sets.
const createdBy = (type: string) => one('CreatedByResource', 'Resources', 'CreatedByResourceId=ResourceId', `${type}_CreatedByResource`);
const modifiedBy = (type: string) => one('ModifiedByResource', 'Resources', 'ModifiedByResourceId=ResourceId', `${type}_ModifiedByResource`);

export const ENTITY_SETS: readonly PdEntitySet[] = [
  set('Projects', 'Project', ['ProjectId'], `
    ProjectId:Guid EnterpriseProjectTypeDescription:String EnterpriseProjectTypeId:Guid
    EnterpriseProjectTypeIsDefault:Boolean EnterpriseProjectTypeName:String OptimizerCommitDate:DateTime
    OptimizerDecisionAliasLookupTableId:Guid OptimizerDecisionAliasLookupTableValueId:Guid
    OptimizerDecisionID:Byte OptimizerDecisionName:String OptimizerSolutionName:String ParentProjectId:Guid
    PlannerCommitDate:DateTime PlannerDecisionAliasLookupTableId:Guid
    PlannerDecisionAliasLookupTableValueId:Guid PlannerDecisionID:Byte PlannerDecisionName:String
    PlannerEndDate:DateTime PlannerSolutionName:String PlannerStartDate:DateTime ProjectActualCost:Decimal
    ProjectActualDuration:Decimal ProjectActualFinishDate:DateTime ProjectActualOvertimeCost:Decimal
    ProjectActualOvertimeWork:Decimal ProjectActualRegularCost:Decimal ProjectActualRegularWork:Decimal
    ProjectActualStartDate:DateTime ProjectActualWork:Decimal ProjectACWP:Decimal ProjectAuthorName:String
    ProjectBCWP:Decimal ProjectBCWS:Decimal ProjectBudgetCost:Decimal ProjectBudgetWork:Decimal
    ProjectCalculationsAreStale:Boolean ProjectCalendarDuration:Int32 ProjectCategoryName:String
    ProjectCompanyName:String ProjectCost:Decimal ProjectCostVariance:Decimal ProjectCPI:Decimal
    ProjectCreatedDate:DateTime ProjectCurrency:String ProjectCV:Decimal ProjectCVP:Decimal
    ProjectDescription:String ProjectDuration:Decimal ProjectDurationVariance:Decimal ProjectEAC:Decimal
    ProjectEarlyFinish:DateTime ProjectEarlyStart:DateTime ProjectEarnedValueIsStale:Boolean
    ProjectEnterpriseFeatures:Boolean ProjectFinishDate:DateTime ProjectFinishVariance:Decimal
    ProjectFixedCost:Decimal ProjectKeywords:String ProjectLastPublishedDate:DateTime ProjectLateFinish:DateTime
    ProjectLateStart:DateTime ProjectManagerName:String ProjectModifiedDate:DateTime ProjectName:String
    ProjectOvertimeCost:Decimal ProjectOvertimeWork:Decimal ProjectOwnerId:Guid ProjectOwnerName:String
    ProjectPercentCompleted:Int16 ProjectPercentWorkCompleted:Int16 ProjectRegularCost:Decimal
    ProjectRegularWork:Decimal ProjectRemainingCost:Decimal ProjectRemainingDuration:Decimal
    ProjectRemainingOvertimeCost:Decimal ProjectRemainingOvertimeWork:Decimal
    ProjectRemainingRegularCost:Decimal ProjectRemainingRegularWork:Decimal ProjectRemainingWork:Decimal
    ProjectResourcePlanWork:Decimal ProjectSPI:Decimal ProjectStartDate:DateTime ProjectStartVariance:Decimal
    ProjectStatusDate:DateTime ProjectSubject:String ProjectSV:Decimal ProjectSVP:Decimal ProjectTCPI:Decimal
    ProjectTitle:String ProjectType:Int32 ProjectVAC:Decimal ProjectWork:Decimal
    ProjectWorkspaceInternalUrl:String ProjectWorkVariance:Decimal
    ResourcePlanUtilizationDate:DateTime ResourcePlanUtilizationType:Int16`, [
    many('AssignmentBaselines', 'AssignmentBaselines', 'ProjectId', 'Project_AssignmentBaselines_AssignmentBaseline_Project'),
    many('Assignments', 'Assignments', 'ProjectId', 'Project_Assignments_Assignment_Project'),
    many('Deliverables', 'Deliverables', 'ProjectId', 'Project_Deliverables_Deliverable_Project'),
    many('Issues', 'Issues', 'ProjectId', 'Project_Issues_Issue_Project'),
    many('Risks', 'Risks', 'ProjectId', 'Project_Risks_Risk_Project'),
    many('StagesInfo', 'ProjectWorkflowStageDataSet', 'ProjectId', 'Project_StagesInfo_ProjectWorkflowStageData_Project'),
    many('Tasks', 'Tasks', 'ProjectId', 'Project_Tasks_Task_Project'),
  ]),

  set('ProjectBaselines', 'ProjectBaseline', ['ProjectId', 'BaselineNumber'], `
    ProjectId:Guid BaselineNumber:Int32 ProjectName:String ProjectBaselineBudgetCost:Decimal
    ProjectBaselineBudgetWork:Decimal ProjectBaselineCost:Decimal
    ProjectBaselineDeliverableFinishDate:DateTime ProjectBaselineDeliverableStartDate:DateTime
    ProjectBaselineDuration:Decimal ProjectBaselineDurationString:String ProjectBaselineFinishDate:DateTime
    ProjectBaselineFinishDateString:String ProjectBaselineFixedCost:Decimal ProjectBaselineStartDate:DateTime
    ProjectBaselineStartDateString:String ProjectBaselineWork:Decimal TaskId:Guid`, [
    one('Project', 'Projects', 'ProjectId', 'ProjectBaseline_Project'),
  ]),

  set('AssignmentBaselines', 'AssignmentBaseline', ['ProjectId', 'AssignmentId', 'BaselineNumber'], `
    ProjectId:Guid AssignmentId:Guid BaselineNumber:Int32 AssignmentBaselineBudgetCost:Decimal
    AssignmentBaselineBudgetMaterialWork:Decimal AssignmentBaselineBudgetWork:Decimal
    AssignmentBaselineCost:Decimal AssignmentBaselineFinishDate:DateTime
    AssignmentBaselineMaterialWork:Decimal AssignmentBaselineStartDate:DateTime AssignmentBaselineWork:Decimal
    AssignmentType:Int32 ProjectName:String TaskId:Guid TaskName:String`, [
    one('Assignment', 'Assignments', 'ProjectId AssignmentId', 'AssignmentBaseline_Assignment_Assignment_Baseline'),
    many('AssignmentBaselineTimephasedDataSet', 'AssignmentBaselineTimephasedDataSet', 'ProjectId AssignmentId BaselineNumber',
      'AssignmentBaseline_AssignmentBaselineTimephasedDataSet_AssignmentBaselineTimephasedData_Baseline'),
    one('Project', 'Projects', 'ProjectId', 'Project_AssignmentBaselines_AssignmentBaseline_Project'),
    one('Task', 'Tasks', 'ProjectId TaskId', 'AssignmentBaseline_Task_Task_AssignmentsBaselines'),
  ]),

  set('AssignmentBaselineTimephasedDataSet', 'AssignmentBaselineTimephasedData', ['ProjectId', 'AssignmentId', 'TimeByDay', 'BaselineNumber'], `
    ProjectId:Guid AssignmentId:Guid TimeByDay:DateTime BaselineNumber:Int32
    AssignmentBaselineBudgetCost:Decimal AssignmentBaselineBudgetMaterialWork:Decimal
    AssignmentBaselineBudgetWork:Decimal AssignmentBaselineCost:Decimal
    AssignmentBaselineCumulativeCost:Decimal AssignmentBaselineCumulativeWork:Decimal
    AssignmentBaselineMaterialWork:Decimal AssignmentBaselineRemainingCumulativeWork:Decimal
    AssignmentBaselineWork:Decimal ProjectName:String ResourceId:Guid TaskId:Guid TaskName:String`, [
    one('Assignment', 'Assignments', 'ProjectId AssignmentId', 'AssignmentBaselineTimephasedData_Assignment'),
    one('Baseline', 'AssignmentBaselines', 'ProjectId AssignmentId BaselineNumber',
      'AssignmentBaseline_AssignmentBaselineTimephasedDataSet_AssignmentBaselineTimephasedData_Baseline'),
    one('Project', 'Projects', 'ProjectId', 'AssignmentBaselineTimephasedData_Project'),
    one('Tasks', 'Tasks', 'ProjectId TaskId', 'AssignmentBaselineTimephasedData_Tasks_Task_AssignmentsBaselineTimephasedData'),
  ]),

  // Key order AssignmentId, ProjectId (reference and a Project Online capture); ProjectId is still declared first.
  set('Assignments', 'Assignment', ['AssignmentId', 'ProjectId'], `
    ProjectId:Guid AssignmentId:Guid AssignmentActualCost:Decimal AssignmentActualFinishDate:DateTime
    AssignmentActualOvertimeCost:Decimal AssignmentActualOvertimeWork:Decimal
    AssignmentActualRegularCost:Decimal AssignmentActualRegularWork:Decimal AssignmentActualStartDate:DateTime
    AssignmentActualWork:Decimal AssignmentACWP:Decimal AssignmentBCWP:Decimal AssignmentBCWS:Decimal
    AssignmentBookingDescription:String AssignmentBookingId:Int32 AssignmentBookingName:String
    AssignmentBudgetCost:Decimal AssignmentBudgetMaterialWork:Decimal AssignmentBudgetWork:Decimal
    AssignmentCost:Decimal AssignmentCostVariance:Decimal AssignmentCreatedDate:DateTime
    AssignmentCreatedRevisionCounter:Int32 AssignmentCV:Decimal AssignmentDelay:Decimal
    AssignmentFinishDate:DateTime AssignmentFinishVariance:Decimal AssignmentIsOverallocated:Boolean
    AssignmentIsPublished:Boolean AssignmentMaterialActualWork:Decimal AssignmentMaterialWork:Decimal
    AssignmentModifiedDate:DateTime AssignmentModifiedRevisionCounter:Int32 AssignmentOvertimeCost:Decimal
    AssignmentOvertimeWork:Decimal AssignmentPeakUnits:Decimal AssignmentPercentWorkCompleted:Int16
    AssignmentRegularCost:Decimal AssignmentRegularWork:Decimal AssignmentRemainingCost:Decimal
    AssignmentRemainingOvertimeCost:Decimal AssignmentRemainingOvertimeWork:Decimal
    AssignmentRemainingRegularCost:Decimal AssignmentRemainingRegularWork:Decimal
    AssignmentRemainingWork:Decimal AssignmentResourcePlanWork:Decimal AssignmentResourceType:Int16
    AssignmentStartDate:DateTime AssignmentStartVariance:Decimal AssignmentSV:Decimal AssignmentType:Int32
    AssignmentVAC:Decimal AssignmentWork:Decimal AssignmentWorkVariance:Decimal IsPublic:Boolean
    ProjectName:String ResourceId:Guid ResourceName:String TaskId:Guid TaskIsActive:Boolean TaskName:String
    TimesheetClassId:Guid TypeDescription:String TypeName:String`, [
    // "Baseline" is a collection: the association's AssignmentBaseline end is `*`.
    many('Baseline', 'AssignmentBaselines', 'ProjectId AssignmentId', 'AssignmentBaseline_Assignment_Assignment_Baseline'),
    one('Project', 'Projects', 'ProjectId', 'Project_Assignments_Assignment_Project'),
    one('Resource', 'Resources', 'ResourceId', 'Assignment_Resource_Resource_Assignments'),
    one('Task', 'Tasks', 'ProjectId TaskId', 'Assignment_Task_Task_Assignments'),
    many('TimephasedData', 'AssignmentTimephasedDataSet', 'ProjectId AssignmentId', 'AssignmentTimephasedData_Assignment_Assignment_TimephasedData'),
  ]),

  set('AssignmentTimephasedDataSet', 'AssignmentTimephasedData', ['ProjectId', 'AssignmentId', 'TimeByDay'], `
    ProjectId:Guid AssignmentId:Guid TimeByDay:DateTime AssignmentActualCost:Decimal
    AssignmentActualOvertimeCost:Decimal AssignmentActualOvertimeWork:Decimal
    AssignmentActualRegularCost:Decimal AssignmentActualRegularWork:Decimal AssignmentActualWork:Decimal
    AssignmentBudgetCost:Decimal AssignmentBudgetMaterialWork:Decimal AssignmentBudgetWork:Decimal
    AssignmentCombinedWork:Decimal AssignmentCost:Decimal AssignmentCumulativeActualWork:Decimal
    AssignmentCumulativeCost:Decimal AssignmentCumulativeWork:Decimal AssignmentMaterialActualWork:Decimal
    AssignmentMaterialWork:Decimal AssignmentOvertimeCost:Decimal AssignmentOvertimeWork:Decimal
    AssignmentRegularCost:Decimal AssignmentRegularWork:Decimal AssignmentRemainingCost:Decimal
    AssignmentRemainingCumulativeActualWork:Decimal AssignmentRemainingCumulativeWork:Decimal
    AssignmentRemainingOvertimeCost:Decimal AssignmentRemainingOvertimeWork:Decimal
    AssignmentRemainingRegularCost:Decimal AssignmentRemainingRegularWork:Decimal
    AssignmentRemainingWork:Decimal AssignmentResourcePlanWork:Decimal AssignmentWork:Decimal
    ProjectName:String ResourceId:Guid TaskId:Guid TaskIsActive:Boolean TaskName:String`, [
    one('Assignment', 'Assignments', 'ProjectId AssignmentId', 'AssignmentTimephasedData_Assignment_Assignment_TimephasedData'),
    one('Project', 'Projects', 'ProjectId', 'AssignmentTimephasedData_Project'),
    one('Task', 'Tasks', 'ProjectId TaskId', 'AssignmentTimephasedData_Task'),
  ]),

  set('BusinessDriverDepartments', 'BusinessDriverDepartment', ['BusinessDriverId', 'DepartmentId'], `
    BusinessDriverId:Guid DepartmentId:Guid BusinessDriverName:String DepartmentName:String`, [
    one('BusinessDriver', 'BusinessDrivers', 'BusinessDriverId', 'BusinessDriver_Departments_BusinessDriverDepartment_BusinessDriver'),
  ]),

  set('BusinessDrivers', 'BusinessDriver', ['BusinessDriverId'], `
    BusinessDriverId:Guid BusinessDriverCreatedDate:DateTime BusinessDriverDescription:String
    BusinessDriverIsActive:Boolean BusinessDriverModifiedDate:DateTime BusinessDriverName:String
    CreatedByResourceId:Guid CreatedByResourceName:String ImpactDescriptionExtreme:String
    ImpactDescriptionLow:String ImpactDescriptionModerate:String ImpactDescriptionNone:String
    ImpactDescriptionStrong:String ModifiedByResourceId:Guid ModifiedByResourceName:String`, [
    createdBy('BusinessDriver'),
    many('Departments', 'BusinessDriverDepartments', 'BusinessDriverId', 'BusinessDriver_Departments_BusinessDriverDepartment_BusinessDriver'),
    modifiedBy('BusinessDriver'),
  ]),

  set('CostConstraintScenarios', 'CostConstraintScenario', ['ScenarioId'], `
    ScenarioId:Guid AnalysisId:Guid AnalysisName:String CreatedByResourceId:Guid CreatedByResourceName:String
    CreatedDate:DateTime ModifiedByResourceId:Guid ModifiedByResourceName:String ModifiedDate:DateTime
    ScenarioDescription:String ScenarioName:String SelectedProjectsCost:Decimal
    SelectedProjectsPriority:Double UnselectedProjectsCost:Decimal UnselectedProjectsPriority:Double
    UseDependencies:Boolean`, [
    one('Analysis', 'PortfolioAnalyses', 'AnalysisId', 'PortfolioAnalysis_CostConstraintScenarios_CostConstraintScenario_Analysis'),
    many('CostScenarioProjects', 'CostScenarioProjects', 'ScenarioId',
      'CostConstraintScenario_CostScenarioProjects_CostScenarioProject_CostConstraintScenario'),
    createdBy('CostConstraintScenario'),
    modifiedBy('CostConstraintScenario'),
    many('ResourceConstraintScenarios', 'ResourceConstraintScenarios', 'ScenarioId=CostConstraintScenarioId',
      'CostConstraintScenario_ResourceConstraintScenarios_ResourceConstraintScenario_CostConstraintScenario'),
  ]),

  set('CostScenarioProjects', 'CostScenarioProject', ['ScenarioId', 'ProjectId'], `
    ScenarioId:Guid ProjectId:Guid AbsolutePriority:Double AnalysisId:Guid AnalysisName:String
    ForceAliasLookupTableId:Guid ForceAliasLookupTableName:String ForceStatus:Byte HardConstraintValue:Decimal
    Priority:Double ProjectName:String ScenarioName:String Status:Byte`, [
    one('Analysis', 'PortfolioAnalyses', 'AnalysisId', 'CostScenarioProject_Analysis'),
    one('CostConstraintScenario', 'CostConstraintScenarios', 'ScenarioId',
      'CostConstraintScenario_CostScenarioProjects_CostScenarioProject_CostConstraintScenario'),
    one('Project', 'Projects', 'ProjectId', 'CostScenarioProject_Project'),
  ]),

  set('Deliverables', 'Deliverable', ['ProjectId', 'DeliverableId'], `
    ProjectId:Guid DeliverableId:Guid CreateByResource:String CreatedDate:DateTime Description:String
    FinishDate:DateTime IsFolder:Boolean ItemRelativeUrlPath:String ModifiedByResource:String
    ModifiedDate:DateTime ProjectName:String StartDate:DateTime Title:String`, [
    one('Project', 'Projects', 'ProjectId', 'Project_Deliverables_Deliverable_Project'),
  ]),

  set('EngagementsTimephasedDataSet', 'EngagementsTimephasedData', ['EngagementId', 'TimeByDay'], `
    EngagementId:Guid TimeByDay:DateTime CommittedMaxUnits:Decimal CommittedWork:Decimal
    EngagementModifiedDate:DateTime EngagementName:String ProjectId:Guid ProjectName:String
    ProposedMaxUnits:Decimal ProposedWork:Decimal ResourceId:Guid ResourceName:String`),

  set('Issues', 'Issue', ['ProjectId', 'IssueId'], `
    ProjectId:Guid IssueId:Guid AssignedToResource:String Category:String CreateByResource:String
    CreatedDate:DateTime Discussion:String DueDate:DateTime IsFolder:Boolean ItemRelativeUrlPath:String
    ModifiedByResource:String ModifiedDate:DateTime NumberOfAttachments:Int32 Owner:String Priority:String
    ProjectName:String Resolution:String Status:String Title:String`, [
    one('Project', 'Projects', 'ProjectId', 'Project_Issues_Issue_Project'),
  ]),

  // TaskId belongs to RelatedProjectId's project (a task may sit in another project).
  set('IssueTaskAssociations', 'IssueTaskAssociation', ['ProjectId', 'IssueId', 'TaskId', 'RelationshipType'], `
    ProjectId:Guid IssueId:Guid TaskId:Guid RelationshipType:Int32 ProjectName:String RelatedProjectId:Guid
    RelatedProjectName:String TaskName:String Title:String`, [
    one('Issue', 'Issues', 'ProjectId IssueId', 'IssueTaskAssociation_Issue'),
    one('Project', 'Projects', 'ProjectId', 'IssueTaskAssociation_Project'),
    one('RelatedProject', 'Projects', 'RelatedProjectId=ProjectId', 'IssueTaskAssociation_RelatedProject'),
    one('Task', 'Tasks', 'RelatedProjectId=ProjectId TaskId', 'IssueTaskAssociation_Task'),
  ]),

  set('PortfolioAnalyses', 'PortfolioAnalysis', ['AnalysisId'], `
    AnalysisId:Guid AlternateProjectEndDateCustomFieldId:Guid AlternateProjectEndDateCustomFieldName:String
    AlternateProjectStartDateCustomFieldId:Guid AlternateProjectStartDateCustomFieldName:String
    AnalysisDescription:String AnalysisName:String AnalysisType:Int32 BookingType:Byte
    CreatedByResourceId:Guid CreatedByResourceName:String CreatedDate:DateTime DepartmentId:Guid
    DepartmentName:String FilterResourcesByDepartment:Boolean FilterResourcesByRBS:Boolean
    FilterResourcesByRBSValueId:Guid FilterResourcesByRBSValueText:String ForcedInAliasLookupTableId:Guid
    ForcedInAliasLookupTableName:String ForcedOutAliasLookupTableId:Guid ForcedOutAliasLookupTableName:String
    HardConstraintCustomFieldId:Guid HardConstraintCustomFieldName:String ModifiedByResourceId:Guid
    ModifiedByResourceName:String ModifiedDate:DateTime PlanningHorizonEndDate:DateTime
    PlanningHorizonStartDate:DateTime PrioritizationId:Guid PrioritizationName:String PrioritizationType:Int32
    RoleCustomFieldId:Guid RoleCustomFieldName:String TimeScale:Byte
    UseAlternateProjectDatesForResourcePlans:Boolean`, [
    many('AnalysisProjects', 'PortfolioAnalysisProjects', 'AnalysisId', 'PortfolioAnalysis_AnalysisProjects_PortfolioAnalysisProject_Analysis'),
    many('CostConstraintScenarios', 'CostConstraintScenarios', 'AnalysisId', 'PortfolioAnalysis_CostConstraintScenarios_CostConstraintScenario_Analysis'),
    createdBy('PortfolioAnalysis'),
    modifiedBy('PortfolioAnalysis'),
    one('Prioritization', 'Prioritizations', 'PrioritizationId', 'PortfolioAnalysis_Prioritization'),
    many('ResourceConstraintScenarios', 'ResourceConstraintScenarios', 'AnalysisId',
      'PortfolioAnalysis_ResourceConstraintScenarios_ResourceConstraintScenario_Analysis'),
  ]),

  set('PortfolioAnalysisProjects', 'PortfolioAnalysisProject', ['AnalysisId', 'ProjectId'], `
    AnalysisId:Guid ProjectId:Guid AbsolutePriority:Double AnalysisName:String Duration:Decimal
    FinishNoLaterThan:DateTime Locked:Byte OriginalEndDate:DateTime OriginalStartDate:DateTime Priority:Double
    ProjectName:String StartDate:DateTime StartNoEarlierThan:DateTime`, [
    one('Analysis', 'PortfolioAnalyses', 'AnalysisId', 'PortfolioAnalysis_AnalysisProjects_PortfolioAnalysisProject_Analysis'),
    one('Project', 'Projects', 'ProjectId', 'PortfolioAnalysisProject_Project'),
  ]),

  set('PrioritizationDriverRelations', 'PrioritizationDriverRelation', ['PrioritizationId', 'BusinessDriver1Id', 'BusinessDriver2Id'], `
    PrioritizationId:Guid BusinessDriver1Id:Guid BusinessDriver2Id:Guid BusinessDriver1Name:String
    BusinessDriver2Name:String PrioritizationName:String RelationValue:String`, [
    one('Prioritization', 'Prioritizations', 'PrioritizationId',
      'Prioritization_PrioritizationDriverRelations_PrioritizationDriverRelation_Prioritization'),
    one('BusinessDriver1', 'BusinessDrivers', 'BusinessDriver1Id=BusinessDriverId', 'PrioritizationDriverRelation_BusinessDriver1'),
    one('BusinessDriver2', 'BusinessDrivers', 'BusinessDriver2Id=BusinessDriverId', 'PrioritizationDriverRelation_BusinessDriver2'),
  ]),

  set('PrioritizationDrivers', 'PrioritizationDriver', ['PrioritizationId', 'BusinessDriverId'], `
    PrioritizationId:Guid BusinessDriverId:Guid BusinessDriverName:String BusinessDriverPriority:Double
    PrioritizationName:String`, [
    one('BusinessDriver', 'BusinessDrivers', 'BusinessDriverId', 'PrioritizationDriver_BusinessDriver'),
    one('Prioritization', 'Prioritizations', 'PrioritizationId', 'Prioritization_PrioritizationDrivers_PrioritizationDriver_Prioritization'),
  ]),

  set('Prioritizations', 'Prioritization', ['PrioritizationId'], `
    PrioritizationId:Guid ConsistencyRatio:Double CreatedByResourceId:Guid CreatedByResourceName:String
    DepartmentId:Guid DepartmentName:String ModifiedByResourceId:Guid ModifiedByResourceName:String
    PrioritizationCreatedDate:DateTime PrioritizationDescription:String PrioritizationIsManual:Boolean
    PrioritizationModifiedDate:DateTime PrioritizationName:String`, [
    createdBy('Prioritization'),
    modifiedBy('Prioritization'),
    many('PrioritizationDrivers', 'PrioritizationDrivers', 'PrioritizationId',
      'Prioritization_PrioritizationDrivers_PrioritizationDriver_Prioritization'),
    many('PrioritizationDriverRelations', 'PrioritizationDriverRelations', 'PrioritizationId',
      'Prioritization_PrioritizationDriverRelations_PrioritizationDriverRelation_Prioritization'),
  ]),

  set('ProjectWorkflowStageDataSet', 'ProjectWorkflowStageData', ['ProjectId', 'StageId'], `
    ProjectId:Guid StageId:Guid LastModifiedDate:DateTime LCID:Int32 PhaseDescription:String PhaseName:String
    ProjectName:String StageCompletionDate:DateTime StageDescription:String StageEntryDate:DateTime
    StageInformation:String StageName:String StageOrder:Int32 StageStateDescription:String StageStatus:Int32`, [
    one('Project', 'Projects', 'ProjectId', 'Project_StagesInfo_ProjectWorkflowStageData_Project'),
  ]),

  set('ResourceConstraintScenarios', 'ResourceConstraintScenario', ['ScenarioId'], `
    ScenarioId:Guid AllocationThreshold:Decimal AnalysisId:Guid AnalysisName:String ConstraintType:Byte
    ConstraintValue:Decimal CostConstraintScenarioId:Guid CostConstraintScenarioName:String
    CreatedByResourceId:Guid CreatedByResourceName:String CreatedDate:DateTime
    EnforceProjectDependencies:Boolean EnforceSchedulingConstraints:Boolean HiringType:Byte
    ModifiedByResourceId:Guid ModifiedByResourceName:String ModifiedDate:DateTime RateTable:Byte
    ScenarioDescription:String ScenarioName:String`, [
    one('Analysis', 'PortfolioAnalyses', 'AnalysisId', 'PortfolioAnalysis_ResourceConstraintScenarios_ResourceConstraintScenario_Analysis'),
    one('CostConstraintScenario', 'CostConstraintScenarios', 'CostConstraintScenarioId=ScenarioId',
      'CostConstraintScenario_ResourceConstraintScenarios_ResourceConstraintScenario_CostConstraintScenario'),
    createdBy('ResourceConstraintScenario'),
    modifiedBy('ResourceConstraintScenario'),
    many('ResourceScenarioProjects', 'ResourceScenarioProjects', 'ScenarioId',
      'ResourceConstraintScenario_ResourceScenarioProjects_ResourceScenarioProject_ResourceConstraintScenario'),
  ]),

  set('Resources', 'Resource', ['ResourceId'], `
    ResourceId:Guid ResourceBaseCalendar:String ResourceBookingType:Byte ResourceCanLevel:Boolean
    ResourceCode:String ResourceCostCenter:String ResourceCostPerUse:Decimal ResourceCreatedDate:DateTime
    ResourceEarliestAvailableFrom:DateTime ResourceEmailAddress:String ResourceGroup:String
    ResourceHyperlink:String ResourceHyperlinkHref:String ResourceInitials:String ResourceIsActive:Boolean
    ResourceIsGeneric:Boolean ResourceIsTeam:Boolean ResourceLatestAvailableTo:DateTime
    ResourceMaterialLabel:String ResourceMaxUnits:Decimal ResourceModifiedDate:DateTime ResourceName:String
    ResourceNTAccount:String ResourceOvertimeRate:Decimal ResourceStandardRate:Decimal ResourceStatusId:Guid
    ResourceStatusName:String ResourceTimesheetManageId:Guid ResourceType:Int16 ResourceWorkGroup:Int16
    TypeDescription:String TypeName:String`, [
    many('Assignments', 'Assignments', 'ResourceId', 'Assignment_Resource_Resource_Assignments'),
    many('TimephasedInfoDataSet', 'ResourceTimephasedDataSet', 'ResourceId', 'ResourceTimephasedData_Resource_Resource_TimephasedInfoDataSet'),
  ]),

  set('ResourceScenarioProjects', 'ResourceScenarioProject', ['ScenarioId', 'ProjectId'], `
    ScenarioId:Guid ProjectId:Guid AbsolutePriority:Double AnalysisId:Guid AnalysisName:String
    CostConstraintScenarioId:Guid CostConstraintScenarioName:String ForceAliasLookupTableId:Guid
    ForceAliasLookupTableName:String ForceStatus:Byte HardConstraintValue:Decimal NewStartDate:DateTime
    Priority:Double ProjectName:String ResourceCost:Decimal ResourceWork:Decimal ScenarioName:String
    Status:Byte`, [
    one('Analysis', 'PortfolioAnalyses', 'AnalysisId', 'ResourceScenarioProject_Analysis'),
    one('CostConstraintScenario', 'CostConstraintScenarios', 'CostConstraintScenarioId=ScenarioId', 'ResourceScenarioProject_CostConstraintScenario'),
    one('Project', 'Projects', 'ProjectId', 'ResourceScenarioProject_Project'),
    one('ResourceConstraintScenario', 'ResourceConstraintScenarios', 'ScenarioId',
      'ResourceConstraintScenario_ResourceScenarioProjects_ResourceScenarioProject_ResourceConstraintScenario'),
  ]),

  set('ResourceTimephasedDataSet', 'ResourceTimephasedData', ['ResourceId', 'TimeByDay'], `
    ResourceId:Guid TimeByDay:DateTime BaseCapacity:Decimal Capacity:Decimal ResourceName:String`, [
    one('Resource', 'Resources', 'ResourceId', 'ResourceTimephasedData_Resource_Resource_TimephasedInfoDataSet'),
  ]),

  set('Risks', 'Risk', ['ProjectId', 'RiskId'], `
    ProjectId:Guid RiskId:Guid AssignedToResource:String Category:String ContingencyPlan:String Cost:Double
    CostExposure:Double CreateByResource:String CreatedDate:DateTime Description:String DueDate:DateTime
    Exposure:Double Impact:Double IsFolder:Boolean ItemRelativeUrlPath:String MitigationPlan:String
    ModifiedByResource:String ModifiedDate:DateTime NumberOfAttachments:Int32 Owner:String Probability:Double
    ProjectName:String Status:String Title:String TriggerDescription:String TriggerTask:String`, [
    one('Project', 'Projects', 'ProjectId', 'Project_Risks_Risk_Project'),
  ]),

  set('RiskTaskAssociations', 'RiskTaskAssociation', ['ProjectId', 'RiskId', 'TaskId', 'RelationshipType'], `
    ProjectId:Guid RiskId:Guid TaskId:Guid RelationshipType:Int32 ProjectName:String RelatedProjectId:Guid
    RelatedProjectName:String TaskName:String Title:String`, [
    one('Project', 'Projects', 'ProjectId', 'RiskTaskAssociation_Project'),
    one('RelatedProject', 'Projects', 'RelatedProjectId=ProjectId', 'RiskTaskAssociation_RelatedProject'),
    one('Risk', 'Risks', 'ProjectId RiskId', 'RiskTaskAssociation_Risk'),
    one('Task', 'Tasks', 'RelatedProjectId=ProjectId TaskId', 'RiskTaskAssociation_Task'),
  ]),

  set('TaskBaselines', 'TaskBaseline', ['ProjectId', 'TaskId', 'BaselineNumber'], `
    ProjectId:Guid TaskId:Guid BaselineNumber:Int32 ProjectName:String TaskBaselineBudgetCost:Decimal
    TaskBaselineBudgetWork:Decimal TaskBaselineCost:Decimal TaskBaselineDeliverableFinishDate:DateTime
    TaskBaselineDeliverableStartDate:DateTime TaskBaselineDuration:Decimal TaskBaselineDurationString:String
    TaskBaselineFinishDate:DateTime TaskBaselineFinishDateString:String TaskBaselineFixedCost:Decimal
    TaskBaselineModifiedDate:DateTime TaskBaselineStartDate:DateTime TaskBaselineStartDateString:String
    TaskBaselineWork:Decimal TaskName:String`, [
    one('Project', 'Projects', 'ProjectId', 'TaskBaseline_Project'),
    one('Task', 'Tasks', 'ProjectId TaskId', 'TaskBaseline_Task_Task_Baselines'),
    many('TaskBaselineTimephasedDataSet', 'TaskBaselineTimephasedDataSet', 'ProjectId TaskId BaselineNumber',
      'TaskBaseline_TaskBaselineTimephasedDataSet_TaskBaselineTimephasedData_TaskBaselines'),
  ]),

  set('TaskBaselineTimephasedDataSet', 'TaskBaselineTimephasedData', ['ProjectId', 'TaskId', 'TimeByDay', 'BaselineNumber'], `
    ProjectId:Guid TaskId:Guid TimeByDay:DateTime BaselineNumber:Int32 ProjectName:String
    TaskBaselineBudgetCost:Decimal TaskBaselineBudgetWork:Decimal TaskBaselineCost:Decimal
    TaskBaselineFixedCost:Decimal TaskBaselineWork:Decimal TaskName:String`, [
    one('Project', 'Projects', 'ProjectId', 'TaskBaselineTimephasedData_Project'),
    one('Task', 'Tasks', 'ProjectId TaskId', 'TaskBaselineTimephasedData_Task_Task_BaselinesTimephasedDataSet'),
    // A collection although one baseline matches: both ends of the association are `*`.
    many('TaskBaselines', 'TaskBaselines', 'ProjectId TaskId BaselineNumber',
      'TaskBaseline_TaskBaselineTimephasedDataSet_TaskBaselineTimephasedData_TaskBaselines'),
  ]),

  set('Tasks', 'Task', ['ProjectId', 'TaskId'], `
    ProjectId:Guid TaskId:Guid ParentTaskId:Guid ParentTaskName:String ProjectName:String
    TaskActualCost:Decimal TaskActualDuration:Decimal TaskActualFinishDate:DateTime
    TaskActualFixedCost:Decimal TaskActualOvertimeCost:Decimal TaskActualOvertimeWork:Decimal
    TaskActualRegularCost:Decimal TaskActualRegularWork:Decimal TaskActualStartDate:DateTime
    TaskActualWork:Decimal TaskACWP:Decimal TaskBaselineFinishDate:DateTime TaskBaselineStartDate:DateTime
    TaskBCWP:Decimal TaskBCWS:Decimal TaskBudgetCost:Decimal
    TaskBudgetWork:Decimal TaskClientUniqueId:Int32 TaskCost:Decimal TaskCostVariance:Decimal TaskCPI:Decimal
    TaskCreatedDate:DateTime TaskCreatedRevisionCounter:Int32 TaskCV:Decimal TaskCVP:Decimal
    TaskDeadline:DateTime TaskDeliverableFinishDate:DateTime TaskDeliverableStartDate:DateTime
    TaskDuration:Decimal TaskDurationIsEstimated:Boolean TaskDurationString:String
    TaskDurationVariance:Decimal TaskEAC:Decimal TaskEarlyFinish:DateTime TaskEarlyStart:DateTime
    TaskFinishDate:DateTime TaskFinishDateString:String TaskFinishVariance:Decimal TaskFixedCost:Decimal
    TaskFixedCostAssignmentId:Guid TaskFreeSlack:Decimal TaskHyperLinkAddress:String
    TaskHyperLinkFriendlyName:String TaskHyperLinkSubAddress:String TaskIgnoresResourceCalendar:Boolean
    TaskIndex:Int32 TaskIsActive:Boolean TaskIsCritical:Boolean TaskIsEffortDriven:Boolean
    TaskIsExternal:Boolean TaskIsManuallyScheduled:Boolean TaskIsMarked:Boolean TaskIsMilestone:Boolean
    TaskIsOverallocated:Boolean TaskIsProjectSummary:Boolean TaskIsRecurring:Boolean TaskIsSummary:Boolean
    TaskLateFinish:DateTime TaskLateStart:DateTime TaskLevelingDelay:Decimal TaskModifiedDate:DateTime
    TaskModifiedRevisionCounter:Int32 TaskName:String TaskOutlineLevel:Int16 TaskOutlineNumber:String
    TaskOvertimeCost:Decimal TaskOvertimeWork:Decimal TaskPercentCompleted:Int16
    TaskPercentWorkCompleted:Int16 TaskPhysicalPercentCompleted:Int16 TaskPriority:Int16
    TaskRegularCost:Decimal TaskRegularWork:Decimal TaskRemainingCost:Decimal TaskRemainingDuration:Decimal
    TaskRemainingOvertimeCost:Decimal TaskRemainingOvertimeWork:Decimal TaskRemainingRegularCost:Decimal
    TaskRemainingRegularWork:Decimal TaskRemainingWork:Decimal TaskResourcePlanWork:Decimal TaskSPI:Decimal
    TaskStartDate:DateTime TaskStartDateString:String TaskStartVariance:Decimal TaskSV:Decimal TaskSVP:Decimal
    TaskTCPI:Decimal TaskTotalSlack:Decimal TaskVAC:Decimal TaskWBS:String TaskWork:Decimal
    TaskWorkVariance:Decimal`, [
    many('Assignments', 'Assignments', 'ProjectId TaskId', 'Assignment_Task_Task_Assignments'),
    many('AssignmentsBaselines', 'AssignmentBaselines', 'ProjectId TaskId', 'AssignmentBaseline_Task_Task_AssignmentsBaselines'),
    many('AssignmentsBaselineTimephasedData', 'AssignmentBaselineTimephasedDataSet', 'ProjectId TaskId',
      'AssignmentBaselineTimephasedData_Tasks_Task_AssignmentsBaselineTimephasedData'),
    many('Baselines', 'TaskBaselines', 'ProjectId TaskId', 'TaskBaseline_Task_Task_Baselines'),
    many('BaselinesTimephasedDataSet', 'TaskBaselineTimephasedDataSet', 'ProjectId TaskId',
      'TaskBaselineTimephasedData_Task_Task_BaselinesTimephasedDataSet'),
    one('Project', 'Projects', 'ProjectId', 'Project_Tasks_Task_Project'),
    many('TimephasedInfo', 'TaskTimephasedDataSet', 'ProjectId TaskId', 'TaskTimephasedData_Task_Task_TimephasedInfo'),
  ]),

  set('TaskTimephasedDataSet', 'TaskTimephasedData', ['ProjectId', 'TaskId', 'TimeByDay'], `
    ProjectId:Guid TaskId:Guid TimeByDay:DateTime ProjectName:String TaskActualCost:Decimal
    TaskActualWork:Decimal TaskBudgetCost:Decimal TaskBudgetWork:Decimal TaskCost:Decimal TaskIsActive:Boolean
    TaskName:String TaskOvertimeWork:Decimal TaskResourcePlanWork:Decimal TaskWork:Decimal`, [
    one('Project', 'Projects', 'ProjectId', 'TaskTimephasedData_Project'),
    one('Task', 'Tasks', 'ProjectId TaskId', 'TaskTimephasedData_Task_Task_TimephasedInfo'),
  ]),

  set('TimeSet', 'Time', ['TimeByDay'], `
    TimeByDay:DateTime FiscalPeriodId:Guid FiscalPeriodModifiedDate:DateTime FiscalPeriodName:String
    FiscalPeriodStart:DateTime FiscalPeriodYear:Int32 FiscalQuarter:Int32 TimeDayOfTheMonth:Byte
    TimeDayOfTheWeek:Byte TimeMonthOfTheYear:Byte TimeQuarter:Byte TimeWeekOfTheYear:Byte`),

  set('TimesheetClasses', 'TimesheetClass', ['TimesheetClassId', 'DepartmentId'], `
    TimesheetClassId:Guid DepartmentId:Guid DepartmentName:String Description:String LCID:Int32
    TimesheetClassName:String TimesheetClassType:Byte`),

  // Key order as the reference gives it (AdjustmentIndex, TimeByDay, TimesheetLineId); TimesheetLineId is declared first.
  set('TimesheetLineActualDataSet', 'TimesheetLineActualData', ['AdjustmentIndex', 'TimeByDay', 'TimesheetLineId'], `
    TimesheetLineId:Guid AdjustmentIndex:Int32 TimeByDay:DateTime ActualOvertimeWorkBillable:Decimal
    ActualOvertimeWorkNonBillable:Decimal ActualWorkBillable:Decimal ActualWorkNonBillable:Decimal
    Comment:String CreatedDate:DateTime LastChangedResourceName:String PlannedWork:Decimal ResourceName:String
    TimeByDay_DayOfMonth:Byte TimeByDay_DayOfWeek:Byte`, [
    one('Time', 'TimeSet', 'TimeByDay', 'TimesheetLineActualData_Time'),
    one('TimesheetLine', 'TimesheetLines', 'TimesheetLineId', 'TimesheetLine_Actuals_TimesheetLineActualData_TimesheetLine'),
  ]),

  set('TimesheetLines', 'TimesheetLine', ['TimesheetLineId'], `
    TimesheetLineId:Guid ActualOvertimeWorkBillable:Decimal ActualOvertimeWorkNonBillable:Decimal
    ActualWorkBillable:Decimal ActualWorkNonBillable:Decimal AssignmentId:Guid CreatedDate:DateTime
    LastSavedWork:Decimal LCID:Int32 ModifiedDate:DateTime PeriodEndDate:DateTime PeriodStartDate:DateTime
    PlannedWork:Decimal ProjectId:Guid ProjectName:String TaskHierarchy:String TaskId:Guid TaskName:String
    TimesheetApproverResourceId:Guid TimesheetApproverResourceName:String TimesheetClassDescription:String
    TimesheetClassId:Guid TimesheetClassName:String TimesheetClassType:Byte TimesheetId:Guid
    TimesheetLineComment:String TimesheetLineStatus:String TimesheetLineStatusId:Byte TimesheetName:String
    TimesheetOwner:String TimesheetOwnerId:Guid TimesheetPeriodId:Guid TimesheetPeriodName:String
    TimesheetPeriodStatus:String TimesheetPeriodStatusId:Byte TimesheetStatus:String TimesheetStatusId:Byte`, [
    many('Actuals', 'TimesheetLineActualDataSet', 'TimesheetLineId', 'TimesheetLine_Actuals_TimesheetLineActualData_TimesheetLine'),
    one('ApproverResource', 'Resources', 'TimesheetApproverResourceId=ResourceId', 'TimesheetLine_ApproverResource'),
    one('Timesheet', 'Timesheets', 'TimesheetId', 'TimesheetLine_Timesheet_Timesheet_Lines'),
    // TimesheetClasses is keyed by (TimesheetClassId, DepartmentId); the line names only the class.
    one('TimesheetClass', 'TimesheetClasses', 'TimesheetClassId', 'TimesheetLine_TimesheetClass'),
  ]),

  set('TimesheetPeriods', 'TimesheetPeriod', ['PeriodId'], `
    PeriodId:Guid Description:String EndDate:DateTime LCID:Int32 PeriodName:String PeriodStatusId:Byte
    StartDate:DateTime`),

  set('Timesheets', 'Timesheet', ['TimesheetId'], `
    TimesheetId:Guid Comment:String Description:String EndDate:DateTime ModifiedDate:DateTime PeriodId:Guid
    PeriodName:String PeriodStatusId:Byte StartDate:DateTime StatusDescription:String TimesheetName:String
    TimesheetOwner:String TimesheetOwnerId:Guid TimesheetStatusId:Byte`, [
    many('Lines', 'TimesheetLines', 'TimesheetId', 'TimesheetLine_Timesheet_Timesheet_Lines'),
    one('Periods', 'TimesheetPeriods', 'PeriodId', 'Timesheet_Periods'),
  ]),
];

const BY_NAME = new Map(ENTITY_SETS.map((s) => [s.name, s]));

/** A built-in set by its exact (case-sensitive) name. */
export function builtInSet(name: string): PdEntitySet | undefined {
  return BY_NAME.get(name);
}
