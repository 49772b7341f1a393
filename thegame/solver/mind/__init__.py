"""The Mind under the gap model (rule M6): one level played out, exact odds, the campaign MDP."""
