// The built-in entity sets of Project's reporting feed (ReportingData), written compactly:
// `Name:Type` pairs, where Type is the Edm type without its `Edm.` prefix. Keys are listed
// first and are never null. Custom (enterprise) fields are added per site at run time.

import type { EdmType, PdEntitySet, PdNavigation, PdProperty } from './model.ts';

/** Page sizes Project Server 2013 documents: Projects 100, Risks 200; other sets INFERRED (docs/compatibility.md). */
const PAGE = { projects: 100, risks: 200, other: 300 } as const;

function props(key: string[], spec: string): PdProperty[] {
  return spec.trim().split(/\s+/).map((pair) => {
    const [name, type] = pair.split(':');
    if (!name || !type) throw new Error(`bad catalogue entry ${pair}`);
    return { name, type: `Edm.${type}` as EdmType, nullable: !key.includes(name) };
  });
}

const many = (name: string, target: string, ...on: string[]): PdNavigation =>
  ({ name, target, many: true, on: on.map((p) => [p, p] as [string, string]) });
const one = (name: string, target: string, ...on: string[]): PdNavigation =>
  ({ name, target, many: false, on: on.map((p) => [p, p] as [string, string]) });

function set(name: string, entityType: string, key: string[], spec: string, navigations: PdNavigation[], defaultPageSize: number = PAGE.other): PdEntitySet {
  const properties = props(key, spec);
  for (const k of key) if (!properties.some((p) => p.name === k)) throw new Error(`${name}: key ${k} is not a property`);
  return { name, entityType, key, properties, navigations, defaultPageSize };
}

export const ENTITY_SETS: readonly PdEntitySet[] = [
  set('Projects', 'Project', ['ProjectId'], `
    ProjectId:Guid EnterpriseProjectTypeId:Guid EnterpriseProjectTypeName:String
    ProjectActualCost:Decimal ProjectActualDuration:Decimal ProjectActualFinishDate:DateTime
    ProjectActualStartDate:DateTime ProjectActualWork:Decimal ProjectAuthorName:String
    ProjectCost:Decimal ProjectCreatedDate:DateTime ProjectCurrency:String ProjectDescription:String
    ProjectDuration:Decimal ProjectFinishDate:DateTime ProjectLastPublishedDate:DateTime
    ProjectModifiedDate:DateTime ProjectName:String ProjectOwnerId:Guid ProjectOwnerName:String
    ProjectPercentCompleted:Int16 ProjectPercentWorkCompleted:Int16 ProjectRemainingCost:Decimal
    ProjectRemainingWork:Decimal ProjectStartDate:DateTime ProjectStatusDate:DateTime
    ProjectType:Int32 ProjectWork:Decimal`,
  [many('Tasks', 'Tasks', 'ProjectId'), many('Assignments', 'Assignments', 'ProjectId'),
    many('Issues', 'Issues', 'ProjectId'), many('Risks', 'Risks', 'ProjectId'),
    many('TaskBaselines', 'TaskBaselines', 'ProjectId'), many('AssignmentBaselines', 'AssignmentBaselines', 'ProjectId')],
  PAGE.projects),

  set('Tasks', 'Task', ['ProjectId', 'TaskId'], `
    ProjectId:Guid TaskId:Guid ProjectName:String ParentTaskId:Guid ParentTaskName:String
    TaskActualCost:Decimal TaskActualDuration:Decimal TaskActualFinishDate:DateTime
    TaskActualStartDate:DateTime TaskActualWork:Decimal TaskBaselineStartDate:DateTime
    TaskBaselineFinishDate:DateTime TaskCost:Decimal TaskCreatedDate:DateTime TaskDeadline:DateTime
    TaskDuration:Decimal TaskDurationString:String TaskFinishDate:DateTime TaskFinishDateString:String
    TaskIndex:Int32 TaskIsActive:Boolean TaskIsCritical:Boolean TaskIsMilestone:Boolean
    TaskIsSummary:Boolean TaskModifiedDate:DateTime TaskName:String TaskOutlineLevel:Int32
    TaskOutlineNumber:String TaskPercentCompleted:Int16 TaskPercentWorkCompleted:Int16
    TaskPriority:Int16 TaskRemainingCost:Decimal TaskRemainingDuration:Decimal
    TaskRemainingWork:Decimal TaskStartDate:DateTime TaskStartDateString:String TaskWork:Decimal`,
  [one('Project', 'Projects', 'ProjectId'), many('Assignments', 'Assignments', 'ProjectId', 'TaskId'),
    many('Baselines', 'TaskBaselines', 'ProjectId', 'TaskId')]),

  set('TaskBaselines', 'TaskBaseline', ['ProjectId', 'TaskId', 'BaselineNumber'], `
    ProjectId:Guid TaskId:Guid BaselineNumber:Int16 TaskBaselineBudgetCost:Decimal
    TaskBaselineBudgetWork:Decimal TaskBaselineCost:Decimal TaskBaselineDeliverableFinishDate:DateTime
    TaskBaselineDeliverableStartDate:DateTime TaskBaselineDuration:Decimal
    TaskBaselineDurationString:String TaskBaselineFinishDate:DateTime TaskBaselineFinishDateString:String
    TaskBaselineFixedCost:Decimal TaskBaselineModifiedDate:DateTime TaskBaselineStartDate:DateTime
    TaskBaselineStartDateString:String TaskBaselineWork:Decimal TaskName:String ProjectName:String`,
  [one('Project', 'Projects', 'ProjectId'), one('Task', 'Tasks', 'ProjectId', 'TaskId')]),

  set('Resources', 'Resource', ['ResourceId'], `
    ResourceId:Guid ResourceBaseCalendar:String ResourceBookingType:Int16 ResourceCanLevel:Boolean
    ResourceCode:String ResourceCostCenter:String ResourceCostPerUse:Decimal ResourceCreatedDate:DateTime
    ResourceEarliestAvailableFrom:DateTime ResourceEmailAddress:String ResourceGroup:String
    ResourceHyperlink:String ResourceInitials:String ResourceIsActive:Boolean ResourceIsGeneric:Boolean
    ResourceIsTeam:Boolean ResourceLatestAvailableTo:DateTime ResourceMaterialLabel:String
    ResourceMaxUnits:Decimal ResourceModifiedDate:DateTime ResourceName:String ResourceNTAccount:String
    ResourceOvertimeRate:Decimal ResourceStandardRate:Decimal ResourceStatusName:String
    ResourceTimesheetManageId:Guid ResourceType:Int16 ResourceWorkgroup:Int16`,
  [many('Assignments', 'Assignments', 'ResourceId')]),

  set('Assignments', 'Assignment', ['ProjectId', 'AssignmentId'], `
    ProjectId:Guid AssignmentId:Guid AssignmentActualCost:Decimal AssignmentActualFinishDate:DateTime
    AssignmentActualStartDate:DateTime AssignmentActualWork:Decimal AssignmentBookingId:Int16
    AssignmentBookingName:String AssignmentCost:Decimal AssignmentCreatedDate:DateTime
    AssignmentFinishDate:DateTime AssignmentIsOverallocated:Boolean AssignmentIsPublished:Boolean
    AssignmentModifiedDate:DateTime AssignmentPercentWorkCompleted:Int16 AssignmentRemainingCost:Decimal
    AssignmentRemainingWork:Decimal AssignmentStartDate:DateTime AssignmentWork:Decimal
    ProjectName:String ResourceId:Guid ResourceName:String TaskId:Guid TaskName:String
    TaskIsActive:Boolean`,
  [one('Project', 'Projects', 'ProjectId'), one('Resource', 'Resources', 'ResourceId'),
    one('Task', 'Tasks', 'ProjectId', 'TaskId'), many('Baselines', 'AssignmentBaselines', 'ProjectId', 'AssignmentId')]),

  set('AssignmentBaselines', 'AssignmentBaseline', ['ProjectId', 'AssignmentId', 'BaselineNumber'], `
    ProjectId:Guid AssignmentId:Guid BaselineNumber:Int16 AssignmentBaselineBudgetCost:Decimal
    AssignmentBaselineBudgetMaterialWork:Decimal AssignmentBaselineBudgetWork:Decimal
    AssignmentBaselineCost:Decimal AssignmentBaselineFinishDate:DateTime
    AssignmentBaselineMaterialWork:Decimal AssignmentBaselineModifiedDate:DateTime
    AssignmentBaselineStartDate:DateTime AssignmentBaselineWork:Decimal ProjectName:String
    ResourceId:Guid TaskId:Guid TaskName:String`,
  [one('Project', 'Projects', 'ProjectId'), one('Assignment', 'Assignments', 'ProjectId', 'AssignmentId')]),

  set('Issues', 'Issue', ['ProjectId', 'IssueId'], `
    ProjectId:Guid IssueId:Guid AssignedToResource:String Category:String CreatedByResource:String
    CreatedDate:DateTime Discussion:String DueDate:DateTime IsFolder:Boolean ItemRelativeUrlPath:String
    ModifiedByResource:String ModifiedDate:DateTime NumberOfAttachments:Int32 Owner:String
    Priority:String ProjectName:String Resolution:String Status:String Title:String`,
  [one('Project', 'Projects', 'ProjectId')], PAGE.risks),

  set('Risks', 'Risk', ['ProjectId', 'RiskId'], `
    ProjectId:Guid RiskId:Guid AssignedToResource:String Category:String ContingencyPlan:String
    Cost:Decimal CostImpact:Decimal CreatedByResource:String CreatedDate:DateTime Description:String
    DueDate:DateTime Exposure:Decimal Impact:Decimal IsFolder:Boolean ItemRelativeUrlPath:String
    MitigationPlan:String ModifiedByResource:String ModifiedDate:DateTime NumberOfAttachments:Int32
    Owner:String Probability:Decimal ProjectName:String Status:String Title:String TriggerDescription:String
    TriggerTask:String`,
  [one('Project', 'Projects', 'ProjectId')], PAGE.risks),

  set('TimeSet', 'Time', ['TimeByDay'], `
    TimeByDay:DateTime FiscalPeriodId:Guid FiscalPeriodName:String FiscalPeriodStart:DateTime
    FiscalQuarter:Int16 FiscalPeriodModifiedDate:DateTime FiscalYear:Int16 TimeDayOfTheMonth:Int16
    TimeDayOfTheWeek:Int16 TimeMonthOfTheYear:Int16 TimeQuarter:Int16 TimeWeekOfTheYear:Int16`,
  []),

  set('TimesheetLines', 'TimesheetLine', ['TimesheetLineId'], `
    TimesheetLineId:Guid ActualOvertimeWorkBillable:Decimal ActualOvertimeWorkNonBillable:Decimal
    ActualWorkBillable:Decimal ActualWorkNonBillable:Decimal AssignmentId:Guid CreatedDate:DateTime
    LastSavedWork:Decimal ModifiedDate:DateTime PeriodEndDate:DateTime PeriodStartDate:DateTime
    PlannedWork:Decimal ProjectId:Guid ProjectName:String TaskHierarchy:String TaskId:Guid
    TaskName:String TimesheetApproverResourceId:Guid TimesheetApproverResourceName:String
    TimesheetClassDescription:String TimesheetClassId:Guid TimesheetClassName:String TimesheetClassType:Int32
    TimesheetId:Guid TimesheetLineComment:String TimesheetLineStatus:String TimesheetLineStatusId:Int32
    TimesheetName:String TimesheetOwner:String TimesheetOwnerId:Guid TimesheetPeriodId:Guid
    TimesheetPeriodName:String TimesheetPeriodStatus:String TimesheetPeriodStatusId:Int32
    TimesheetStatus:String TimesheetStatusId:Int32`,
  []),
];

const BY_NAME = new Map(ENTITY_SETS.map((s) => [s.name, s]));

/** A built-in set by its exact (case-sensitive) name. */
export function builtInSet(name: string): PdEntitySet | undefined {
  return BY_NAME.get(name);
}
