import TransitCommands

TransitQueryCommand.runFromCommandLine()
