"""Events, sections, pairs, teams, rounds, results, rulings and their audit trail."""
