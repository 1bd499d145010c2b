/// The built-in sample command palette (`pick --demo`): commands in three sections,
/// with hidden keywords and shortcuts, in pick's input format. The shortcuts are keys
/// the prompt does not otherwise use, so pressing one picks its line.
let demoPalette = """
New File\tCreate\tadd,touch,create\tf2
New Folder\tCreate\tmkdir,directory\tf3
New Window\tCreate\topen,frame\tf4
Duplicate Line\tCreate\tcopy,clone
Save\tActions\twrite,store\tf5
Save All\tActions\twrite,everything\tf6
Find in Files\tActions\tsearch,grep\tf7
Rename Symbol\tActions\trefactor
Toggle Comment\tActions\tcomment,uncomment\tf8
Go to Line\tGo to\tjump,number\tf9
Go to File\tGo to\topen,quick\tf10
Go to Definition\tGo to\tjump,symbol\tf11
Go to Terminal\tGo to\tshell,console\tf12

"""
